// The play handler of worker processes: the LLM port from the llm module, settings from the environment.
import { createPlayHandler } from './handler';

export const playExecutionHandler = createPlayHandler({});
