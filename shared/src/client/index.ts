export * from './http';
export * from './api';
