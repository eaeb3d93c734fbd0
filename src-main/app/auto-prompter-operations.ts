// The Auto Prompter operations: read and replace the default workspace's rules file for Settings. A broken file is
// reported (naming the file and the field), not thrown, so Settings can show it and save a fixed version. Settings
// shows the rules in force (the accepted version), and a save is accepted as it is written.
import { AUTO_PROMPTER_OFF, type AutoPrompterView } from '../../src-shared/auto-prompter';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import {
  AUTO_PROMPTER_FILE,
  autoPrompterFile,
  autoPrompterText,
  loadAutoPrompter,
  saveAutoPrompter as save,
} from '../engine/auto-prompter-file';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';
import { acceptAndWrite } from './settings-change-operations';

function view(ctx: AppContext, workspacePath: string | null): AutoPrompterView {
  if (workspacePath === null) {
    return { workspacePath: null, file: null, exists: false, settings: AUTO_PROMPTER_OFF, error: null };
  }
  const file = autoPrompterFile(workspacePath);
  try {
    const settings = loadAutoPrompter(workspacePath, ctx.accepted.inForce);
    return { workspacePath, file, exists: settings !== null, settings: settings ?? AUTO_PROMPTER_OFF, error: null };
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    return { workspacePath, file, exists: true, settings: AUTO_PROMPTER_OFF, error: error.message };
  }
}

export function getAutoPrompter(ctx: AppContext): OpOutput<'getAutoPrompter'> {
  return view(ctx, ctx.defaultWorkspace);
}

export function saveAutoPrompter(
  ctx: AppContext,
  settings: OpParsedInput<'saveAutoPrompter'>,
): OpOutput<'saveAutoPrompter'> {
  if (ctx.defaultWorkspace === null) {
    throw new MaestroError(
      'conflict',
      'there is no default workspace folder to keep Auto Prompter rules in; edit .maestro/auto-prompter.json in the task’s folder',
    );
  }
  const workspacePath = ctx.defaultWorkspace;
  acceptAndWrite(ctx, workspacePath, AUTO_PROMPTER_FILE, autoPrompterText(settings), () =>
    save(workspacePath, settings),
  );
  return view(ctx, workspacePath);
}
