/** One argument for /bin/sh, quoted so that the shell reads it back exactly as it is. */
export const shellQuote = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;
