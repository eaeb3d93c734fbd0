// Before the e2e run: the specs drive the BUILT app (out/), so make sure a build exists; `npm test` builds first.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const REQUIRED = ['out/main/headless.js', 'out/renderer/index.html'];

export default function globalSetup(): void {
  const missing = REQUIRED.filter((file) => !fs.existsSync(path.join(ROOT, file)));
  if (missing.length === 0) return;
  console.log(`e2e: ${missing.join(', ')} missing; running electron-vite build`);
  execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
