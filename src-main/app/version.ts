// The app version, inlined at build time from package.json.
declare const __MAESTRO_VERSION__: string | undefined;
export const VERSION: string = typeof __MAESTRO_VERSION__ === 'string' ? __MAESTRO_VERSION__ : '0.0.0-dev';
