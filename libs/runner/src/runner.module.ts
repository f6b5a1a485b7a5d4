import { Module } from '@nestjs/common';
import { TaskRunnerWorker } from './task-runner.worker';

/**
 * The runner: executes created tasks through the provider adapters and stores their outputs. Needs EVENT_BUS,
 * OBJECT_STORAGE, CLOCK and APP_CONFIG from the composing app.
 */
@Module({ providers: [TaskRunnerWorker] })
export class RunnerModule {}
