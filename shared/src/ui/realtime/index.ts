export * from './RealtimeProvider';
export * from './cache';
