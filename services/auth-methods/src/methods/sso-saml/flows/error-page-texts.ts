import type { MessageLanguage } from '@sesame/platform';
import { refusalMessages } from './refusals';
import type { SignInRefusal } from './refusals';

/** What an error page of the SAML flows says, besides a sign-in refusal. */
export type PageNotice =
  | 'sso_unavailable'
  | 'internal_error'
  | 'signed_out'
  | 'unknown_logout'
  | 'slo_unavailable'
  | 'logout_request_refused'
  | 'logout_response_refused'
  | 'logout_unknown_response';

/** A page's message: a notice, or why a sign-in was refused. */
export type PageMessage = PageNotice | { refusal: SignInRefusal };

export interface PageTexts {
  title: string;
  /** The line under the message, around the reference an operator finds in the logs. */
  retry: [before: string, after: string];
  notices: Record<PageNotice, string>;
  refusals: Record<SignInRefusal, string>;
}

const en: PageTexts = {
  title: 'Sign-in failed',
  retry: [
    'Please go back to the application and try again. If this keeps happening, give your administrator this reference: ',
    '.',
  ],
  notices: {
    sso_unavailable: 'Single sign-on is not available right now. Please try again later.',
    internal_error: 'Sign-in failed because of an internal error.',
    signed_out: 'You are signed out.',
    unknown_logout: 'This logout request is unknown or already done.',
    slo_unavailable: 'Single logout is not available for this organization.',
    logout_request_refused: 'The logout request of the identity provider was refused.',
    logout_response_refused: 'The logout response of the identity provider was refused.',
    logout_unknown_response: 'This logout answers a request we did not make.',
  },
  refusals: refusalMessages,
};

const fr: PageTexts = {
  title: 'Échec de la connexion',
  retry: ['Revenez à l’application et réessayez. Si le problème persiste, donnez cette référence à votre administrateur : ', '.'],
  notices: {
    sso_unavailable: 'L’authentification unique n’est pas disponible pour le moment. Réessayez plus tard.',
    internal_error: 'La connexion a échoué à cause d’une erreur interne.',
    signed_out: 'Vous êtes déconnecté.',
    unknown_logout: 'Cette demande de déconnexion est inconnue ou déjà traitée.',
    slo_unavailable: 'La déconnexion unique n’est pas disponible pour cette organisation.',
    logout_request_refused: 'La demande de déconnexion du fournisseur d’identité a été refusée.',
    logout_response_refused: 'La réponse de déconnexion du fournisseur d’identité a été refusée.',
    logout_unknown_response: 'Cette déconnexion répond à une demande que nous n’avons pas faite.',
  },
  refusals: {
    malformed: 'Le fournisseur d’identité a envoyé une réponse illisible.',
    doctype: 'La réponse du fournisseur d’identité contient une déclaration de type de document, ce qui n’est pas accepté.',
    not_a_response: 'Le fournisseur d’identité n’a pas envoyé de réponse SAML.',
    status_not_success: 'Le fournisseur d’identité ne vous a pas authentifié.',
    encrypted_assertion_unsupported:
      'Le fournisseur d’identité a chiffré son assertion, ce que cette connexion ne prend pas en charge.',
    decryption_failed:
      'La réponse du fournisseur d’identité n’a pas pu être déchiffrée (vérifiez le certificat de chiffrement dans le fournisseur d’identité).',
    weak_encryption:
      'Le fournisseur d’identité a chiffré son assertion avec un algorithme qui n’est plus accepté (utilisez RSA-OAEP et AES).',
    assertion_count: 'La réponse du fournisseur d’identité doit contenir exactement une assertion.',
    signature_wrapping: 'La réponse du fournisseur d’identité a une structure de signature incorrecte.',
    comment_injection:
      'La réponse du fournisseur d’identité contient des commentaires XML dans son assertion, ce qui n’est pas accepté.',
    unsigned: 'La réponse du fournisseur d’identité n’est pas signée.',
    bad_signature: 'La signature de la réponse du fournisseur d’identité n’est pas valide.',
    untrusted_certificate:
      'La réponse du fournisseur d’identité est signée avec un certificat auquel cette connexion ne fait pas confiance.',
    wrong_issuer: 'La réponse vient d’un autre fournisseur d’identité.',
    wrong_destination: 'La réponse du fournisseur d’identité a été envoyée à une autre destination.',
    wrong_audience: 'La réponse du fournisseur d’identité est destinée à une autre application.',
    wrong_recipient: 'La réponse du fournisseur d’identité désigne un autre destinataire.',
    expired: 'La réponse du fournisseur d’identité a expiré.',
    not_yet_valid: 'La réponse du fournisseur d’identité n’est pas encore valable (vérifiez les horloges).',
    missing_name_id: 'La réponse du fournisseur d’identité ne dit pas qui vous êtes.',
    in_response_to_mismatch: 'La réponse du fournisseur d’identité répond à deux demandes différentes.',
    in_response_to_unsigned:
      'La réponse du fournisseur d’identité désigne la demande de connexion à laquelle elle répond hors de sa signature.',
    connection_unavailable: 'L’authentification unique n’est pas disponible pour cette organisation.',
    authn_connection_not_allowed: 'Cette organisation n’autorise pas la connexion par authentification unique.',
    schema_invalid: 'La réponse du fournisseur d’identité ne suit pas le schéma SAML 2.0.',
    unknown_in_response_to: 'La réponse du fournisseur d’identité répond à une demande de connexion que nous n’avons pas faite.',
    challenge_used: 'Cette demande de connexion a déjà été utilisée.',
    challenge_expired: 'Cette demande de connexion a expiré.',
    idp_initiated_not_allowed:
      'Les connexions lancées depuis le fournisseur d’identité ne sont pas autorisées pour cette organisation.',
    no_default_redirect_uri:
      'L’application n’a pas d’URI de redirection par défaut pour les connexions lancées depuis le fournisseur d’identité.',
    replay: 'Cette réponse du fournisseur d’identité a déjà été utilisée.',
    no_email: 'Le fournisseur d’identité n’a pas envoyé votre adresse e-mail.',
    user_not_registered: 'Votre compte n’est pas enregistré pour cette application.',
    user_inactive: 'Votre compte est désactivé.',
    provisioning_limit_reached: 'Aucun autre utilisateur ne peut être créé pour cette organisation.',
    user_limit_reached: 'Aucun autre utilisateur ne peut être créé : la limite d’utilisateurs de l’abonnement est atteinte.',
    state_mismatch: 'Cette réponse de connexion ne correspond à aucune demande de connexion de ce navigateur.',
    nonce_mismatch: 'Le jeton d’identité du fournisseur d’identité a été émis pour une autre demande de connexion.',
    idp_error: 'Le fournisseur d’identité ne vous a pas connecté.',
    idp_unreachable: 'Le fournisseur d’identité n’a pas pu être joint.',
    token_exchange_failed: 'Le fournisseur d’identité a refusé de terminer la connexion.',
    id_token_invalid: 'Le jeton d’identité du fournisseur d’identité n’est pas valide.',
  },
};

/** The texts of the error pages in each language the browser may ask for (`Accept-Language`). */
export const pageTexts: Record<MessageLanguage, PageTexts> = { en, fr };

export const pageMessageText = (texts: PageTexts, message: PageMessage) =>
  typeof message === 'string' ? texts.notices[message] : texts.refusals[message.refusal];
