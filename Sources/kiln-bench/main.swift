import KilnExport
print("kiln-bench")
