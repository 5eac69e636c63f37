export * from './ScoreModelEditor';
export * from './ScoreBreakdown';
export * from './useListScoring';
