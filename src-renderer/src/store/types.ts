// The combined store's shape: the union of its slices.
import type { ActivitySlice } from './activity-slice';
import type { AutoPrompterSlice } from './auto-prompter-slice';
import type { CheckpointsSlice } from './checkpoints-slice';
import type { DetailSlice } from './detail-slice';
import type { EntitySlice } from './entity-slice';
import type { FoldersSlice } from './folders-slice';
import type { GrantsSlice } from './grants-slice';
import type { HostsSlice } from './hosts-slice';
import type { LessonsSlice } from './lessons-slice';
import type { LiveSlice } from './live-slice';
import type { McpSettingsSlice } from './mcp-settings-slice';
import type { McpSlice } from './mcp-slice';
import type { NoticesSlice } from './notices-slice';
import type { PiecesSlice } from './pieces-slice';
import type { PrefsSlice } from './prefs-slice';
import type { ProfilesSlice } from './profiles-slice';
import type { RequestsSlice } from './requests-slice';
import type { SettingsChangesSlice } from './settings-changes-slice';
import type { SettingsSlice } from './settings-slice';
import type { TasksSlice } from './tasks-slice';
import type { ToolPolicySlice } from './tool-policy-slice';
import type { UsageSlice } from './usage-slice';

export type LoadState = 'idle' | 'loading' | 'ready' | 'error';

export type AppState = EntitySlice &
  TasksSlice &
  DetailSlice &
  RequestsSlice &
  GrantsSlice &
  McpSlice &
  McpSettingsSlice &
  PiecesSlice &
  ProfilesSlice &
  AutoPrompterSlice &
  LiveSlice &
  UsageSlice &
  NoticesSlice &
  ActivitySlice &
  PrefsSlice &
  FoldersSlice &
  ToolPolicySlice &
  SettingsSlice &
  HostsSlice &
  SettingsChangesSlice &
  CheckpointsSlice &
  LessonsSlice;
