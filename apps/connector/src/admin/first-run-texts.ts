// The first-run checklist's sentences in each language of the admin page (the session's).
import type { AdminLanguage } from './admin-language';

const en = {
  title: {
    zendesk: 'Connection to Zendesk',
    incident_key: 'Incident API key',
    setup: 'Setup run',
    webhooks: 'Webhooks confirmed',
    sidebar: 'Sidebar installed',
  },
  setupSummary: {
    never_run: 'Setup has not run yet.',
    queued: 'Setup is queued.',
    running: 'Setup is running.',
    failed: 'The last setup run failed.',
    needs_configuration: 'Setup waits for the incident API key.',
    needs_authorization: 'Setup waits for a wider Zendesk permission.',
  } as Record<string, string>,
  connectedTo: (url: string) => `Connected to ${url}.`,
  tokenRefused: (subdomain: string) =>
    `Zendesk no longer accepts the connector's token for ${subdomain}.`,
  notConnected: (subdomain: string) => `incident-desk is not connected to ${subdomain}.`,
  authorizeAgain: 'Authorise incident-desk with Zendesk again, as a Zendesk admin.',
  keySavedFor: (client: string) => `Saved for client ${client}.`,
  noKey: 'No incident API key is saved yet.',
  enterKey:
    'Enter the API key and client id the incident service gave you, and save: the key is checked with the service before it is kept.',
  setupNext: {
    never_run: 'Run setup: it creates the ticket fields, the webhook and the triggers.',
    keySavedRunSetup: 'The incident API key is saved: run setup now.',
    keyFirst: 'Save the incident API key first, then run setup.',
    needs_authorization:
      'Setup needs a wider Zendesk permission once: authorise it with Zendesk; setup then runs by itself.',
    failed: (message: string | undefined) =>
      `Setup failed${message ? `: ${message}` : ''}. Fix what it names, then run it again.`,
    queued: 'Setup is queued; this page shows when it is done.',
    running: 'Setup is running; this page shows when it is done.',
  },
  setupDone: 'Fields, webhook and triggers are in place.',
  incidentDelivered: 'the incident service delivered a test event',
  noSubscription: 'no incident-service subscription yet',
  noDeliveryFor: (clients: string) => `no delivery yet from the incident service for ${clients}`,
  zendeskDelivered: 'Zendesk delivered a signed webhook',
  noZendeskWebhook: 'no webhook from Zendesk yet',
  runSetupFirst:
    'Run setup first: it subscribes to the incident service, creates the Zendesk webhook and tests both.',
  sendTest: (andZendesk: boolean) =>
    `Send a test delivery: the incident service${andZendesk ? ' and Zendesk' : ''} call the connector and this step records it.`,
  zendeskTestsAtSetup: (tag: string) =>
    `Zendesk tests its webhook at the end of setup, while incident-desk holds setup's permission: run setup again (Zendesk asks you to authorise it), or add the tag ${tag} to a test ticket with a Threat.`,
  sidebarOpened: 'An agent has opened the incident-desk sidebar on a ticket.',
  sidebarNotOpened: 'No agent has opened the incident-desk sidebar yet.',
  installSidebar:
    'Install the incident-desk app in Zendesk (Admin Center, Apps and integrations, Marketplace) and open any ticket: the sidebar shows and this step is done.',
};

export type FirstRunTexts = typeof en;

const fr: FirstRunTexts = {
  title: {
    zendesk: 'Connexion à Zendesk',
    incident_key: 'Clé d’API du service d’incidents',
    setup: 'Configuration',
    webhooks: 'Webhooks confirmés',
    sidebar: 'Barre latérale installée',
  },
  setupSummary: {
    never_run: 'La configuration n’a pas encore été lancée.',
    queued: 'La configuration est en file d’attente.',
    running: 'La configuration est en cours.',
    failed: 'La dernière configuration a échoué.',
    needs_configuration: 'La configuration attend la clé d’API du service d’incidents.',
    needs_authorization: 'La configuration attend une autorisation Zendesk plus large.',
  },
  connectedTo: (url) => `Connecté à ${url}.`,
  tokenRefused: (subdomain) => `Zendesk n’accepte plus le jeton du connecteur pour ${subdomain}.`,
  notConnected: (subdomain) => `incident-desk n’est pas connecté à ${subdomain}.`,
  authorizeAgain: 'Autorisez à nouveau incident-desk avec Zendesk, en tant qu’admin Zendesk.',
  keySavedFor: (client) => `Enregistrée pour le client ${client}.`,
  noKey: 'Aucune clé d’API du service d’incidents n’est encore enregistrée.',
  enterKey:
    'Saisissez la clé d’API et l’identifiant client que le service d’incidents vous a donnés, puis enregistrez : la clé est vérifiée auprès du service avant d’être conservée.',
  setupNext: {
    never_run:
      'Lancez la configuration : elle crée les champs de ticket, le webhook et les déclencheurs.',
    keySavedRunSetup: 'La clé d’API est enregistrée : lancez la configuration maintenant.',
    keyFirst: 'Enregistrez d’abord la clé d’API, puis lancez la configuration.',
    needs_authorization:
      'La configuration demande une fois une autorisation Zendesk plus large : autorisez-la avec Zendesk ; la configuration se lance ensuite d’elle-même.',
    // the run's message is English: the Setup section words its outcome in French instead
    failed: () =>
      'La configuration a échoué : la section Configuration dit pourquoi. Corrigez ce qu’elle indique, puis relancez-la.',
    queued: 'La configuration est en file d’attente ; cette page indique quand elle est terminée.',
    running: 'La configuration est en cours ; cette page indique quand elle est terminée.',
  },
  setupDone: 'Les champs, le webhook et les déclencheurs sont en place.',
  incidentDelivered: 'le service d’incidents a livré un événement de test',
  noSubscription: 'pas encore d’abonnement au service d’incidents',
  noDeliveryFor: (clients) =>
    `aucune livraison du service d’incidents pour l’instant pour ${clients}`,
  zendeskDelivered: 'Zendesk a livré un webhook signé',
  noZendeskWebhook: 'aucun webhook de Zendesk pour l’instant',
  runSetupFirst:
    'Lancez d’abord la configuration : elle s’abonne au service d’incidents, crée le webhook Zendesk et teste les deux.',
  sendTest: (andZendesk) =>
    `Envoyez une livraison de test : le service d’incidents${andZendesk ? ' et Zendesk appellent' : ' appelle'} le connecteur et cette étape l’enregistre.`,
  zendeskTestsAtSetup: (tag) =>
    `Zendesk teste son webhook à la fin de la configuration, tant qu’incident-desk détient l’autorisation de configuration : relancez la configuration (Zendesk vous demande de l’autoriser), ou ajoutez l’étiquette ${tag} à un ticket de test avec une menace.`,
  sidebarOpened: 'Un agent a ouvert la barre latérale d’incident-desk sur un ticket.',
  sidebarNotOpened: 'Aucun agent n’a encore ouvert la barre latérale d’incident-desk.',
  installSidebar:
    'Installez l’application incident-desk dans Zendesk (Centre d’administration, Applications et intégrations, Marketplace) et ouvrez un ticket : la barre latérale s’affiche et cette étape est faite.',
};

const TEXTS: Record<AdminLanguage, FirstRunTexts> = { en, fr };

export const firstRunTexts = (language: AdminLanguage): FirstRunTexts => TEXTS[language];
