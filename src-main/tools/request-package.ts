// request_package { manager, name, version?, reason }: asks a person to install an npm or pip package for this task;
// the job waits until they decide. Installed packages land in the task's runtime dir (see install-package.ts).
import { z } from 'zod';
import { fail } from './outcome';
import { checkPackage } from './package-names';
import type { ToolDef } from './types';

export const RequestPackageArgs = z.strictObject({
  manager: z.enum(['npm', 'pip']).describe('The package manager: "npm" or "pip".'),
  name: z.string().min(1).describe('The package name as the registry spells it, e.g. "left-pad" or "requests".'),
  version: z
    .string()
    .min(1)
    .optional()
    .describe('The version to install (npm: a version or range; pip: an exact version). Default: the latest.'),
  reason: z.string().trim().min(1).describe('Why the task needs this package, for the person who decides.'),
});
export type RequestPackageArgs = z.infer<typeof RequestPackageArgs>;

export const requestPackageTool: ToolDef<RequestPackageArgs> = {
  name: 'request_package',
  description:
    'Ask the user to install an npm or pip package for this task. The task waits for the decision; once installed, run_command can use the package.',
  parameters: RequestPackageArgs,
  readOnly: false,
  needs: ['external'],
  async execute(args) {
    const problem = checkPackage(args.manager, args.name, args.version);
    if (problem) return fail(`request_package: ${problem}`);
    return {
      kind: 'wait',
      packageRequest: { manager: args.manager, name: args.name, version: args.version ?? null, reason: args.reason },
    };
  },
};
