// The API client with its zod contracts (a chunk of its own, loaded after the first view: api.ts),
// which then check the answers the first view took without them.
import { contractsLoaded, createApi } from '@dealscout/shared/client';
import * as contracts from '@dealscout/shared/contracts';
import { API_OPTIONS } from './api-options';

export const checkedApi = createApi(API_OPTIONS);
void contractsLoaded(contracts);
