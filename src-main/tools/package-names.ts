// What a package request may name: npm and pip package names and versions by their registries' rules, and nothing
// a shell or a command line could read as something else (no metacharacters, spaces, or leading `-`).

/** npm: lowercase, URL-safe, optionally scoped (`@scope/name`), at most 214 characters, not starting with . _ or -. */
const NPM_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;
/** npm version or range without spaces: 1.2.3, ^1.2.0, ~1.2, 1.x, latest, 2.0.0-beta.1. */
const NPM_VERSION = /^[0-9A-Za-z^~][0-9A-Za-z.+^~*-]*$/;
/** PEP 508 names: letters, digits, . _ - ; starting and ending with a letter or digit. */
const PIP_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A PEP 440 version, pinned with ==: 1.2.3, 2.0rc1, 1!2.0, 1.0.post1, 1.0+local. */
const PIP_VERSION = /^[0-9][0-9A-Za-z.!+_-]*$/;

export type PackageManager = 'npm' | 'pip';

/** An error message for the field at fault, or null when the name and version are acceptable. */
export function checkPackage(manager: PackageManager, name: string, version?: string | null): string | null {
  if (manager === 'npm') {
    if (name.length > 214 || !NPM_NAME.test(name)) {
      return `name: ${JSON.stringify(name)} is not a valid npm package name (lowercase letters, digits, - . _ ~, optionally @scope/)`;
    }
    if (version != null && !NPM_VERSION.test(version)) {
      return `version: ${JSON.stringify(version)} is not a valid npm version or range (no spaces or shell characters)`;
    }
    return null;
  }
  if (name.length > 214 || !PIP_NAME.test(name)) {
    return `name: ${JSON.stringify(name)} is not a valid pip package name (letters, digits, - . _)`;
  }
  if (version != null && !PIP_VERSION.test(version)) {
    return `version: ${JSON.stringify(version)} is not a valid pip version (e.g. 2.31.0; it is pinned with ==)`;
  }
  return null;
}

/** The argument the package manager gets: npm `name@version`, pip `name==version`, or the bare name. */
export function packageSpec(manager: PackageManager, name: string, version?: string | null): string {
  if (version == null) return name;
  return manager === 'npm' ? `${name}@${version}` : `${name}==${version}`;
}
