// Small text helpers shared by the tools: binary detection, line splitting, and caps with a visible note.

/** A file is treated as binary when its first 8000 bytes contain a NUL byte (git's rule). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Lines of a text; a final line break does not start another (empty) line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Cuts one long line, saying so. */
export function capLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… (${line.length - max} more characters in this line)`;
}
