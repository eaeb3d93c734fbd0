// The pieces a task can run, for the create form.
import type { StateCreator } from 'zustand';
import type { PieceLoadError, PieceSummary } from '../../../src-shared/entities';
import { type MaestroApi, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export interface PiecesSlice {
  pieces: PieceSummary[];
  pieceErrors: PieceLoadError[];
  piecesLoad: LoadState;
  piecesError: string | null;
  loadPieces(): Promise<void>;
}

export const createPiecesSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], PiecesSlice> =>
  (set) => ({
    pieces: [],
    pieceErrors: [],
    piecesLoad: 'idle',
    piecesError: null,

    async loadPieces() {
      set({ piecesLoad: 'loading' });
      try {
        const { pieces, errors } = await api.listPieces({});
        set({ pieces, pieceErrors: errors, piecesLoad: 'ready', piecesError: null });
      } catch (error) {
        set({ piecesLoad: 'error', piecesError: toApiError(error).message });
      }
    },
  });
