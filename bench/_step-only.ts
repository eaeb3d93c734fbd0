import { measureStepOverhead } from './checkpoints-step';

void measureStepOverhead();
