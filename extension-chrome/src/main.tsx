import { createRoot } from 'react-dom/client';
import { FluentProvider, webLightTheme, Title3, Body1 } from '@fluentui/react-components';

// The Chrome side panel. Reading the CRM page, finding or creating the company and running
// enrichments arrive with the extension issue (built with WXT); this shell proves the build.
function SidePanel() {
  return (
    <FluentProvider theme={webLightTheme} style={{ padding: 16 }}>
      <Title3 as="h1">Dealscout</Title3>
      <Body1 as="p">The side panel for researchers is coming: the company on the CRM page, its enrichments, lists and plays.</Body1>
    </FluentProvider>
  );
}

createRoot(document.getElementById('root')!).render(<SidePanel />);
