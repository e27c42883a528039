// Module KilnMedia: see docs/architecture.md.
