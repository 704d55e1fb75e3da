import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { takeInvitationToken } from './token';
import './styles.css';

const token = takeInvitationToken(window.location, window.history, window.sessionStorage);
const requested = new URL(window.location.href).searchParams.get('lang');

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App token={token} requestedLanguage={requested} browserLanguages={navigator.languages} />
  </StrictMode>,
);
