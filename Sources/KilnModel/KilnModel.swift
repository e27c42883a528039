// Module KilnModel: see docs/architecture.md.
