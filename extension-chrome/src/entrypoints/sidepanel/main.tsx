import { createRoot } from 'react-dom/client';
import { PanelApp } from '../../panel/PanelApp';
import { extensionPanelHost } from '../../host/extension-host';

createRoot(document.getElementById('root')!).render(<PanelApp host={extensionPanelHost()} />);
