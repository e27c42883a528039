import KilnExport
print("kiln")
