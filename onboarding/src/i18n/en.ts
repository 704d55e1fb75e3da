import type { Messages } from './messages';

export const en: Messages = {
  languageName: 'English',
  title: 'Set up single sign-on',
  loading: 'Opening your invitation…',
  invitedAs: (email, organization) => `You are invited as ${email} to connect the identity provider of ${organization}.`,
  validUntil: (date) => `This link works until ${date}.`,
  signInDomains: (domains) => `People with an email address at ${domains} will sign in through your identity provider.`,
  problems: {
    missing: {
      title: 'This page needs an invitation link',
      text: 'Open the link of the invitation email you received: it carries what this page needs.',
    },
    invalid: {
      title: 'This invitation link is not valid',
      text: 'It may be incomplete, or a newer invitation replaced it. Use the link of the latest invitation email, or ask to be invited again.',
    },
    used: {
      title: 'This invitation has already been answered',
      text: 'The link cannot be used to answer again.',
    },
    expired: {
      title: 'This invitation has expired',
      text: 'Ask the person who invited you to send a new invitation.',
    },
    declined: {
      title: 'You declined this invitation',
      text: 'The link no longer works. If you are in charge after all, ask to be invited again.',
    },
    unavailable: {
      title: 'The service cannot be reached',
      text: 'Please try again in a few minutes.',
    },
  },
  charge: {
    title: 'Are you in charge of single sign-on?',
    question: (organization) =>
      `Accept if you administer the identity provider of ${organization}. Decline if someone else does: whoever invited you will see it and can invite that person.`,
    accept: 'I am in charge',
    decline: 'Someone else is in charge',
    confirmDecline: 'Yes, decline the invitation',
    cancel: 'Cancel',
    accepted: (date) => `You accepted to be in charge of single sign-on on ${date}.`,
    declinedTitle: 'Thank you',
    declinedText: (organization) =>
      `You declined being in charge of single sign-on for ${organization}. The invitation link no longer works.`,
    failed: 'Your answer could not be saved. Please try again.',
  },
  steps: {
    provider: '1. Choose your identity provider',
    providerHelp: 'Pick the product your company signs in with. Choose “Other SAML 2.0 provider” if it is not listed.',
    values: '2. Create the application in your identity provider',
    valuesHelp: (provider) => `Enter these values in ${provider}. Each has a copy button.`,
    instructions: (provider) => `Steps in ${provider}`,
  },
  instructions: {
    azure_ad: [
      'In the Microsoft Entra admin center, open Enterprise applications, then New application › Create your own application, and choose “Integrate any other application you don’t find in the gallery (Non-gallery)”.',
      'Open Single sign-on and choose SAML.',
      'In Basic SAML Configuration, set Identifier (Entity ID) to our entity ID and Reply URL (Assertion Consumer Service URL) to our ACS URL.',
      'In Attributes & Claims, keep the email address, given name and surname claims; the Unique User Identifier (Name ID) should be user.mail or user.userprincipalname.',
      'In SAML Certificates, download the Federation Metadata XML and upload it in the next step.',
      'In Users and groups, assign the people who may sign in.',
    ],
    adfs: [
      'In AD FS Management, open Relying Party Trusts and choose Add Relying Party Trust (Claims aware).',
      'Choose “Import data about the relying party published online” and enter our SP metadata URL (or enter the data manually: SAML 2.0 WebSSO with our ACS URL, and our entity ID as the relying party trust identifier).',
      'Choose an access control policy, for example Permit everyone, or a group.',
      'Edit the claim issuance policy: add a “Send LDAP Attributes as Claims” rule mapping E-Mail-Addresses to E-Mail Address, Given-Name to Given Name and Surname to Surname, then a “Transform an Incoming Claim” rule from E-Mail Address to Name ID (Email format).',
      'Download your federation metadata from https://<your AD FS host>/FederationMetadata/2007-06/FederationMetadata.xml and upload it in the next step.',
    ],
    google: [
      'In the Google Admin console, open Apps › Web and mobile apps, then Add app › Add custom SAML app, and name it.',
      'On the Google Identity Provider details page, download the IdP metadata (Option 1) and keep it for the next step.',
      'In Service provider details, set ACS URL to our ACS URL and Entity ID to our entity ID; choose Name ID format EMAIL and Name ID Basic Information › Primary email.',
      'In Attribute mapping, map Primary email to email, First name to first_name and Last name to last_name.',
      'Open User access and turn the app ON for everyone or for the organizational units that may sign in.',
    ],
    okta: [
      'In the Okta Admin Console, open Applications › Applications › Create App Integration and choose SAML 2.0.',
      'Set Single sign-on URL to our ACS URL (keep “Use this for Recipient URL and Destination URL” checked) and Audience URI (SP Entity ID) to our entity ID.',
      'Choose Name ID format EmailAddress and Application username Email.',
      'Add the attribute statements email (user.email), firstName (user.firstName) and lastName (user.lastName).',
      'Finish, then on the Sign On tab download the Metadata file of the SAML 2.0 signing certificate and upload it in the next step.',
      'On the Assignments tab, assign the people or groups who may sign in.',
    ],
    ping_federate: [
      'In the PingFederate administrative console, open Applications › SP Connections and create a connection with the Browser SSO profile, SAML 2.0.',
      'Import our SP metadata from our SP metadata URL, or enter our entity ID as Partner’s Entity ID and our ACS URL as the assertion consumer service endpoint (HTTP POST binding).',
      'In the attribute contract, send the email address as SAML_SUBJECT and add email, given_name and family_name.',
      'Sign the assertion with your signing certificate (RSA SHA-256).',
      'Activate the connection, export its metadata (Export Metadata) and upload it in the next step.',
    ],
    ping_one: [
      'In the PingOne admin console, open Applications › Applications, add an application and choose SAML Application.',
      'Import our SP metadata from our SP metadata URL, or enter our ACS URL and our entity ID manually.',
      'In Attribute Mappings, map saml_subject to Email Address and add email, given_name and family_name.',
      'On the Configuration tab, download the metadata and upload it in the next step.',
      'Turn the application on and grant access to the groups who may sign in.',
    ],
    auth0: [
      'In the Auth0 Dashboard, create an application of type Regular Web Application.',
      'In its Addons, turn on SAML2 Web App and set Application Callback URL to our ACS URL.',
      'In the addon settings, set "audience" to our entity ID and "nameIdentifierFormat" to urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, then save.',
      'On the addon’s Usage tab, download the Identity Provider Metadata and upload it in the next step.',
      'On the application’s Connections tab, turn on the connections your people sign in with.',
    ],
    onelogin: [
      'In the OneLogin administration, open Applications › Add App and choose SAML Custom Connector (Advanced).',
      'In Configuration, set Audience (EntityID) to our entity ID, Recipient and ACS (Consumer) URL to our ACS URL, and ACS (Consumer) URL Validator to the same URL with dots escaped.',
      'Set SAML initiator to Service Provider and SAML signature element to Assertion (or Both).',
      'In Parameters, send NameID as Email and add email, first name and last name.',
      'Choose More Actions › SAML Metadata to download the metadata and upload it in the next step; then assign the application to users or roles.',
    ],
    custom_saml: [
      'Create a SAML 2.0 application (a service provider, or relying party) in your identity provider.',
      'Give it our SP metadata URL, or enter our ACS URL (HTTP-POST binding) and our entity ID.',
      'Sign the assertions with your identity provider’s signing certificate (RSA SHA-256) and send the email address as the NameID.',
      'Send the attributes email, given_name and family_name.',
      'Export your identity provider’s SAML metadata (its entity ID, its single sign-on URL and its signing certificate) and upload it in the next step.',
    ],
  },
};
