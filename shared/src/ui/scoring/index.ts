export * from './ScoreModelEditor';
export * from './ScoreBreakdown';
