// The entities in the store: the one place task, job, chat, request and activity state changes, through fold.
import type { StateCreator } from 'zustand';
import { type Entities, type EntityInput, NO_ENTITIES } from './entities';
import { reduceEntities } from './entity-reducer';
import type { AppState } from './types';

export interface EntitySlice {
  entities: Entities;
  /** Folds a page, an action's answer or a pushed event into the entities (entity-reducer.ts). */
  fold(...inputs: EntityInput[]): void;
}

export const createEntitySlice: StateCreator<AppState, [], [], EntitySlice> = (set) => ({
  entities: NO_ENTITIES,

  fold(...inputs) {
    set((state) => {
      const entities = inputs.reduce(reduceEntities, state.entities);
      return entities === state.entities ? {} : { entities };
    });
  },
});
