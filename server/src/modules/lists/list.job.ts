// The list handler of worker processes (handler.ts): list sources and list agents, configured from the environment.
import { createListHandler } from './handler';

export const listExecutionHandler = createListHandler();
