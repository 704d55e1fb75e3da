import type { Messages } from './messages';

export const fr: Messages = {
  languageName: 'Français',
  title: 'Configurer l’authentification unique (SSO)',
  loading: 'Ouverture de votre invitation…',
  invitedAs: (email, organization) =>
    `Vous êtes invité·e en tant que ${email} à connecter le fournisseur d’identité de ${organization}.`,
  sessionNote: (until, minutes) =>
    `Cette page reste ouverte pour vous dans ce navigateur jusqu’au ${until} au plus tard, et se ferme après ${minutes} minutes sans activité. Le lien d’invitation ne fonctionne plus : si la page se ferme, demandez un nouveau lien à la personne qui vous a invité·e.`,
  signInDomains: (domains) =>
    `Les personnes dont l’adresse e-mail est en ${domains} se connecteront par votre fournisseur d’identité.`,
  problems: {
    missing: {
      title: 'Cette page s’ouvre avec un lien d’invitation',
      text: 'Ouvrez le lien de l’e-mail d’invitation que vous avez reçu, dans le navigateur où vous voulez configurer l’authentification unique.',
    },
    invalid: {
      title: 'Ce lien d’invitation n’est pas valide',
      text: 'Il est peut-être incomplet, ou une invitation plus récente l’a remplacé. Utilisez le lien du dernier e-mail d’invitation, ou demandez un nouveau lien à la personne qui vous a invité·e.',
    },
    used: {
      title: 'Ce lien d’invitation a déjà été utilisé',
      text: 'Le lien ne fonctionne qu’une fois : il a ouvert la page de configuration dans le navigateur où il a été ouvert en premier, et la session continue là-bas. Ailleurs, demandez un nouveau lien à la personne qui vous a invité·e.',
    },
    expired: {
      title: 'Ce lien d’invitation a expiré',
      text: 'Pour votre sécurité, le lien ne fonctionne que peu de temps après son envoi. Demandez un nouveau lien à la personne qui vous a invité·e.',
    },
    revoked: {
      title: 'Ce lien d’invitation a été retiré',
      text: 'La personne qui vous a invité·e l’a retiré. Demandez-lui un nouveau lien si vous en avez encore besoin.',
    },
    declined: {
      title: 'Vous avez décliné cette invitation',
      text: 'Le lien ne fonctionne plus. Si vous êtes finalement responsable, demandez une nouvelle invitation.',
    },
    sessionEnded: {
      title: 'Votre session sur cette page est terminée',
      text: 'Elle se termine quand la configuration est terminée ou déclinée, ou quand la personne qui vous a invité·e y met fin ou envoie un nouveau lien. Pour continuer, demandez-lui un nouveau lien d’invitation.',
    },
    sessionExpired: {
      title: 'Votre session sur cette page a expiré',
      text: 'Elle se ferme après un moment sans activité, et quelques heures après l’ouverture du lien. Pour continuer, demandez un nouveau lien d’invitation à la personne qui vous a invité·e.',
    },
    unavailable: {
      title: 'Le service est injoignable',
      text: 'Veuillez réessayer dans quelques minutes.',
    },
  },
  charge: {
    title: 'Êtes-vous responsable de l’authentification unique ?',
    question: (organization) =>
      `Si vous administrez le fournisseur d’identité de ${organization}, configurez-le ci-dessous, puis terminez. Si quelqu’un d’autre s’en charge, déclinez : la personne qui vous a invité·e le verra et pourra l’inviter.`,
    decline: 'Quelqu’un d’autre en est responsable',
    confirmDecline: 'Oui, décliner l’invitation',
    cancel: 'Annuler',
    accepted: (date) => `Vous avez accepté d’être responsable de l’authentification unique le ${date}.`,
    declinedTitle: 'Merci',
    declinedText: (organization) =>
      `Vous avez décliné la responsabilité de l’authentification unique pour ${organization}. Votre session sur cette page est terminée et le lien d’invitation ne fonctionne plus.`,
    failed: 'Votre réponse n’a pas pu être enregistrée. Veuillez réessayer.',
  },
  finish: {
    title: '5. Terminez la configuration',
    text: (organization) =>
      `Quand votre fournisseur d’identité est connecté et que la connexion de test fonctionne, terminez : vous confirmez être responsable de l’authentification unique pour ${organization}. Votre session sur cette page se termine alors ; pour modifier la configuration plus tard, demandez un nouveau lien à la personne qui vous a invité·e.`,
    button: 'Terminer la configuration',
    failed: 'La configuration n’a pas pu être terminée. Veuillez réessayer.',
    doneTitle: 'L’authentification unique est configurée',
    doneText: (organization, date) =>
      `Vous êtes responsable de l’authentification unique pour ${organization} depuis le ${date}. Votre session sur cette page est terminée : pour modifier la configuration plus tard, demandez un nouveau lien d’invitation à la personne qui vous a invité·e.`,
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
  test: {
    title: '4. Testez la connexion',
    help: 'Connectez-vous par votre fournisseur d’identité avec votre propre compte : cette page montre ensuite ce qu’il nous a envoyé. Aucun utilisateur n’est créé.',
    start: 'Lancer une connexion de test',
    refused: 'La connexion de test n’a pas pu démarrer :',
    pending: 'La connexion de test n’est pas terminée : relancez-la.',
    succeeded: 'La connexion de test a réussi. Votre fournisseur d’identité a envoyé :',
    failed: (message) => `La connexion de test a échoué : ${message}`,
    nameId: 'NameID',
    email: 'E-mail',
    attribute: 'Attribut',
    values: 'Valeurs',
    profile: 'Profil que nous en lisons',
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
