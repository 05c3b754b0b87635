// Saving an export. In a browser the file goes where the browser puts
// downloads (it shows them); the name comes from the report (exportName).
// Returns the name saved under when it is known, else null.
export async function saveExport(blob: Blob, name: string): Promise<string | null> {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return null;
}
