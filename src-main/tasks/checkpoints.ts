// Checkpoint operations (listCheckpoints, getTaskChanges, revertTaskFile, rewindTask, forkTask, getCheckpointUsage).
// NOT BUILT YET: this session's integration replaces these with the checkpoint service.
import { MaestroError } from '../../src-shared/errors';

const notYet = (): never => {
  throw new MaestroError('conflict', 'checkpoints are not built yet');
};
export const listCheckpoints = notYet;
export const getTaskChanges = async () => notYet();
export const revertTaskFile = async () => notYet();
export const rewindTask = async () => notYet();
export const forkTask = notYet;
export const getCheckpointUsage = async () => notYet();
