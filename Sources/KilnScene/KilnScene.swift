// Module KilnScene: see docs/architecture.md.
