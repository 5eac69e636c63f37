export * from './ValueView';
