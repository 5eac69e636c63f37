// The score handler of worker processes (handler.ts), with its default batch size and streams.
import { createScoreHandler } from './handler';

export const scoreExecutionHandler = createScoreHandler();
