import type { Messages } from './messages';

export const fr: Messages = {
  languageName: 'Français',
  title: 'Configurer l’authentification unique (SSO)',
  loading: 'Ouverture de votre invitation…',
  invitedAs: (email, organization) =>
    `Vous êtes invité·e en tant que ${email} à connecter le fournisseur d’identité de ${organization}.`,
  validUntil: (date) => `Ce lien fonctionne jusqu’au ${date}.`,
  signInDomains: (domains) =>
    `Les personnes dont l’adresse e-mail est en ${domains} se connecteront par votre fournisseur d’identité.`,
  problems: {
    missing: {
      title: 'Cette page s’ouvre avec un lien d’invitation',
      text: 'Ouvrez le lien de l’e-mail d’invitation que vous avez reçu : il contient ce dont cette page a besoin.',
    },
    invalid: {
      title: 'Ce lien d’invitation n’est pas valide',
      text: 'Il est peut-être incomplet, ou une invitation plus récente l’a remplacé. Utilisez le lien du dernier e-mail d’invitation, ou demandez à être invité·e de nouveau.',
    },
    used: {
      title: 'Vous avez déjà répondu à cette invitation',
      text: 'Le lien ne permet pas de répondre une seconde fois.',
    },
    expired: {
      title: 'Cette invitation a expiré',
      text: 'Demandez à la personne qui vous a invité·e de vous envoyer une nouvelle invitation.',
    },
    declined: {
      title: 'Vous avez décliné cette invitation',
      text: 'Le lien ne fonctionne plus. Si vous êtes finalement responsable, demandez une nouvelle invitation.',
    },
    unavailable: {
      title: 'Le service est injoignable',
      text: 'Veuillez réessayer dans quelques minutes.',
    },
  },
  charge: {
    title: 'Êtes-vous responsable de l’authentification unique ?',
    question: (organization) =>
      `Acceptez si vous administrez le fournisseur d’identité de ${organization}. Déclinez si quelqu’un d’autre s’en charge : la personne qui vous a invité·e le verra et pourra l’inviter.`,
    accept: 'J’en suis responsable',
    decline: 'Quelqu’un d’autre en est responsable',
    confirmDecline: 'Oui, décliner l’invitation',
    cancel: 'Annuler',
    accepted: (date) => `Vous avez accepté d’être responsable de l’authentification unique le ${date}.`,
    declinedTitle: 'Merci',
    declinedText: (organization) =>
      `Vous avez décliné la responsabilité de l’authentification unique pour ${organization}. Le lien d’invitation ne fonctionne plus.`,
    failed: 'Votre réponse n’a pas pu être enregistrée. Veuillez réessayer.',
  },
  steps: {
    provider: '1. Choisissez votre fournisseur d’identité',
    providerHelp:
      'Choisissez le produit avec lequel votre entreprise se connecte. Choisissez « Other SAML 2.0 provider » s’il n’est pas dans la liste.',
    values: '2. Créez l’application dans votre fournisseur d’identité',
    valuesHelp: (provider) => `Saisissez ces valeurs dans ${provider}. Chacune a un bouton pour la copier.`,
    instructions: (provider) => `Étapes dans ${provider}`,
  },
  values: {
    acsUrl: 'URL ACS (Assertion Consumer Service, URL de réponse)',
    entityId: 'Entity ID (audience, identificateur)',
    metadataUrl: 'URL des métadonnées SP',
    copy: 'Copier',
    copied: 'Copié',
  },
  metadata: {
    title: '3. Transmettez-nous les métadonnées de votre fournisseur d’identité',
    help: (provider) => `Déposez le fichier XML de métadonnées SAML téléchargé depuis ${provider}, ou collez son contenu.`,
    file: 'Fichier de métadonnées',
    paste: 'XML des métadonnées',
    save: 'Enregistrer les métadonnées',
    refused: 'Les métadonnées ont été refusées :',
    saved: 'Les métadonnées sont enregistrées.',
    connected: (provider) => `Votre fournisseur d’identité est connecté : ${provider}.`,
    idpEntityId: 'Entity ID du fournisseur d’identité',
    ssoUrl: 'URL de connexion',
    certificate: (fingerprint, until) => `Certificat de signature ${fingerprint}, valide jusqu’au ${until}`,
  },
  instructions: {
    azure_ad: [
      'Dans le centre d’administration Microsoft Entra, ouvrez Applications d’entreprise, puis Nouvelle application › Créer votre propre application, et choisissez « Intégrer une autre application que vous ne trouvez pas dans la galerie (non-galerie) ».',
      'Ouvrez Authentification unique et choisissez SAML.',
      'Dans Configuration SAML de base, renseignez Identificateur (ID d’entité) avec notre entity ID et URL de réponse (URL Assertion Consumer Service) avec notre URL ACS.',
      'Dans Attributs et revendications, gardez l’adresse e-mail, le prénom et le nom ; l’Identificateur d’utilisateur unique (Name ID) doit être user.mail ou user.userprincipalname.',
      'Dans Certificats SAML, téléchargez le fichier XML de métadonnées de fédération et déposez-le à l’étape suivante.',
      'Dans Utilisateurs et groupes, affectez les personnes autorisées à se connecter.',
    ],
    adfs: [
      'Dans la console Gestion AD FS, ouvrez Approbations de partie de confiance et choisissez Ajouter une approbation de partie de confiance (prenant en charge les revendications).',
      'Choisissez « Importer les données concernant la partie de confiance publiées en ligne » et saisissez notre URL de métadonnées SP (ou saisissez les données manuellement : SAML 2.0 WebSSO avec notre URL ACS, et notre entity ID comme identificateur de l’approbation).',
      'Choisissez une stratégie de contrôle d’accès, par exemple Autoriser tout le monde, ou un groupe.',
      'Modifiez la stratégie d’émission de revendications : ajoutez une règle « Envoyer les attributs LDAP en tant que revendications » qui associe E-Mail-Addresses à Adresse de messagerie, Given-Name à Prénom et Surname à Nom, puis une règle « Transformer une revendication entrante » d’Adresse de messagerie vers ID de nom (format E-mail).',
      'Téléchargez vos métadonnées de fédération depuis https://<votre hôte AD FS>/FederationMetadata/2007-06/FederationMetadata.xml et déposez-les à l’étape suivante.',
    ],
    google: [
      'Dans la console d’administration Google, ouvrez Applications › Applications Web et mobiles, puis Ajouter une application › Ajouter une application SAML personnalisée, et nommez-la.',
      'Sur la page Informations sur le fournisseur d’identité Google, téléchargez les métadonnées IdP (option 1) et gardez-les pour l’étape suivante.',
      'Dans Informations sur le fournisseur de services, renseignez URL ACS avec notre URL ACS et ID d’entité avec notre entity ID ; choisissez le format de Name ID EMAIL et Informations de base › Adresse e-mail principale.',
      'Dans Mappage des attributs, associez Adresse e-mail principale à email, Prénom à first_name et Nom à last_name.',
      'Ouvrez Accès utilisateur et activez l’application pour tous ou pour les unités organisationnelles autorisées à se connecter.',
    ],
    okta: [
      'Dans l’Admin Console Okta, ouvrez Applications › Applications › Create App Integration et choisissez SAML 2.0.',
      'Renseignez Single sign-on URL avec notre URL ACS (gardez « Use this for Recipient URL and Destination URL » coché) et Audience URI (SP Entity ID) avec notre entity ID.',
      'Choisissez Name ID format EmailAddress et Application username Email.',
      'Ajoutez les attribute statements email (user.email), firstName (user.firstName) et lastName (user.lastName).',
      'Terminez, puis dans l’onglet Sign On téléchargez le fichier de métadonnées du certificat de signature SAML 2.0 et déposez-le à l’étape suivante.',
      'Dans l’onglet Assignments, affectez les personnes ou groupes autorisés à se connecter.',
    ],
    ping_federate: [
      'Dans la console d’administration PingFederate, ouvrez Applications › SP Connections et créez une connexion avec le profil Browser SSO, SAML 2.0.',
      'Importez nos métadonnées SP depuis notre URL de métadonnées SP, ou saisissez notre entity ID comme Partner’s Entity ID et notre URL ACS comme point de terminaison Assertion Consumer Service (liaison HTTP POST).',
      'Dans le contrat d’attributs, envoyez l’adresse e-mail comme SAML_SUBJECT et ajoutez email, given_name et family_name.',
      'Signez l’assertion avec votre certificat de signature (RSA SHA-256).',
      'Activez la connexion, exportez ses métadonnées (Export Metadata) et déposez-les à l’étape suivante.',
    ],
    ping_one: [
      'Dans la console d’administration PingOne, ouvrez Applications › Applications, ajoutez une application et choisissez SAML Application.',
      'Importez nos métadonnées SP depuis notre URL de métadonnées SP, ou saisissez manuellement notre URL ACS et notre entity ID.',
      'Dans Attribute Mappings, associez saml_subject à Email Address et ajoutez email, given_name et family_name.',
      'Dans l’onglet Configuration, téléchargez les métadonnées et déposez-les à l’étape suivante.',
      'Activez l’application et donnez l’accès aux groupes autorisés à se connecter.',
    ],
    auth0: [
      'Dans le tableau de bord Auth0, créez une application de type Regular Web Application.',
      'Dans ses Addons, activez SAML2 Web App et renseignez Application Callback URL avec notre URL ACS.',
      'Dans les réglages de l’addon, donnez à "audience" la valeur de notre entity ID et à "nameIdentifierFormat" la valeur urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, puis enregistrez.',
      'Dans l’onglet Usage de l’addon, téléchargez Identity Provider Metadata et déposez-les à l’étape suivante.',
      'Dans l’onglet Connections de l’application, activez les connexions utilisées par vos collaborateurs.',
    ],
    onelogin: [
      'Dans l’administration OneLogin, ouvrez Applications › Add App et choisissez SAML Custom Connector (Advanced).',
      'Dans Configuration, renseignez Audience (EntityID) avec notre entity ID, Recipient et ACS (Consumer) URL avec notre URL ACS, et ACS (Consumer) URL Validator avec la même URL, points échappés.',
      'Choisissez SAML initiator Service Provider et SAML signature element Assertion (ou Both).',
      'Dans Parameters, envoyez NameID en tant qu’Email et ajoutez email, prénom et nom.',
      'Choisissez More Actions › SAML Metadata pour télécharger les métadonnées et déposez-les à l’étape suivante ; affectez ensuite l’application aux utilisateurs ou rôles.',
    ],
    custom_saml: [
      'Créez une application SAML 2.0 (fournisseur de services, ou partie de confiance) dans votre fournisseur d’identité.',
      'Donnez-lui notre URL de métadonnées SP, ou saisissez notre URL ACS (liaison HTTP-POST) et notre entity ID.',
      'Signez les assertions avec le certificat de signature de votre fournisseur d’identité (RSA SHA-256) et envoyez l’adresse e-mail comme NameID.',
      'Envoyez les attributs email, given_name et family_name.',
      'Exportez les métadonnées SAML de votre fournisseur d’identité (son entity ID, son URL d’authentification unique et son certificat de signature) et déposez-les à l’étape suivante.',
    ],
  },
};
