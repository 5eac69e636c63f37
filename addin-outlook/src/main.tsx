import { createRoot } from 'react-dom/client';
import { FluentProvider, webLightTheme, Title3, Body1 } from '@fluentui/react-components';

// The Outlook task pane. Its features (the plugin-mode drawer, drafts, Run Play, Log Activity)
// arrive with the add-in issue; this shell proves the build and the shared UI wiring.
function TaskPane() {
  return (
    <FluentProvider theme={webLightTheme} style={{ padding: 16 }}>
      <Title3 as="h1">Dealscout for Outlook</Title3>
      <Body1 as="p">The task pane for reps is coming: the contact and company drawer for the open email, drafting, scheduling and logging activities.</Body1>
    </FluentProvider>
  );
}

createRoot(document.getElementById('root')!).render(<TaskPane />);
