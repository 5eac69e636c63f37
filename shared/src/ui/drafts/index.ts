export * from './DraftsContext';
export * from './DraftPanel';
export * from './DraftPanels';
export * from './DraftItems';
