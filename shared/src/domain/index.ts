export * from './validation';
export * from './tags';
export * from './invite';
export * from './auth-errors';
export * from './keys';
export * from './user-config';
export * from './roles';
