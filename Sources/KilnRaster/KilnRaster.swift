// Module KilnRaster: see docs/architecture.md.
