export * from './http';
export * from './api';
export * from './realtime';
export * from './first-view';
export * from './lazy-api';
