import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { takeInvitationToken } from './token';
import './styles.css';

const token = takeInvitationToken(window.location, window.history, window.sessionStorage);
const query = new URL(window.location.href).searchParams;

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App
      token={token}
      requestedLanguage={query.get('lang')}
      browserLanguages={navigator.languages}
      testRequestId={query.get('request_id')}
    />
  </StrictMode>,
);
