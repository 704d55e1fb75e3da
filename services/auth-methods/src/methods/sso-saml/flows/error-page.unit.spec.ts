import type { RpcReply } from '@sesame/contracts';
import { refusalMessages } from './refusals';
import type { SignInRefusal } from './refusals';
import { errorPage } from './browser-replies';
import { pageTexts } from './error-page-texts';

/** The HTML of a page reply. */
function html(reply: RpcReply<string>): string {
  if (!reply.ok) throw new Error('not a page');
  return reply.body;
}

describe('SAML error pages', () => {
  const meta = (acceptLanguage?: string) => ({ correlationId: 'corr-<1>', ...(acceptLanguage ? { acceptLanguage } : {}) });

  it('speak French to a browser that prefers French, with the escaped reference', () => {
    const page = errorPage({ refusal: 'expired' }, meta('en;q=0.4, fr-FR;q=0.9'));
    expect(page).toMatchObject({
      ok: true,
      status: 400,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-language': 'fr', vary: 'Accept-Language' },
    });
    expect(html(page)).toContain('<html lang="fr">');
    expect(html(page)).toContain('<title>Échec de la connexion</title>');
    expect(html(page)).toContain('<p>La réponse du fournisseur d’identité a expiré.</p>');
    expect(html(page)).toContain(
      '<p>Revenez à l’application et réessayez. Si le problème persiste, donnez cette référence à votre administrateur : <code>corr-&lt;1&gt;</code>.</p>',
    );
  });

  it('speak English otherwise, with the status asked', () => {
    for (const acceptLanguage of [undefined, 'de-DE', 'en-US,en;q=0.9,fr;q=0.8', 'fr;q=0']) {
      const page = errorPage('signed_out', meta(acceptLanguage), 200);
      expect(page).toMatchObject({ status: 200, headers: { 'content-language': 'en' } });
      expect(html(page)).toContain('<html lang="en">');
      expect(html(page)).toContain('<h1>Sign-in failed</h1><p>You are signed out.</p>');
    }
    expect(html(errorPage('sso_unavailable', meta(), 503))).toContain(
      'Single sign-on is not available right now. Please try again later.',
    );
  });

  it('have every refusal and notice written in both languages, the English ones as the API says them', () => {
    expect(pageTexts.en.refusals).toBe(refusalMessages);
    const refusals = Object.keys(refusalMessages) as SignInRefusal[];
    expect(Object.keys(pageTexts.fr.refusals).sort()).toEqual([...refusals].sort());
    for (const refusal of refusals) expect(pageTexts.fr.refusals[refusal]).not.toBe(pageTexts.en.refusals[refusal]);
    expect(Object.keys(pageTexts.fr.notices).sort()).toEqual(Object.keys(pageTexts.en.notices).sort());
  });
});
