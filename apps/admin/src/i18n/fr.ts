// The admin page in French, for admins whose Zendesk locale is French (fr, fr-FR, fr-CA...).
import type { Messages } from './en';

export const fr: Messages = {
  app: {
    title: 'Administration d’incident-desk',
    loadFailed: 'La page d’administration n’a pas pu se charger',
    signedInAs: (userName, subdomain) => `Connecté en tant que ${userName}, admin de ${subdomain}`,
    signOut: 'Se déconnecter',
  },
  signIn: {
    intro: 'Connectez-vous en tant qu’admin Zendesk du compte où incident-desk est installé.',
    label: 'Sous-domaine Zendesk',
    hint: 'par ex. acme, ou collez votre adresse Zendesk, comme https://acme.zendesk.com',
    notASubdomain:
      'Ce n’est pas un sous-domaine Zendesk. Saisissez la partie avant .zendesk.com, par ex. acme pour acme.zendesk.com.',
    empty: 'Saisissez votre sous-domaine Zendesk.',
    submit: 'Se connecter avec Zendesk',
  },
  common: {
    never: 'jamais',
    done: 'fait',
    authoriseWithZendesk: 'Autoriser avec Zendesk',
    runSetup: 'Lancer la configuration',
  },
  firstRun: {
    title: 'Premiers pas',
    progress: (done, total) =>
      `${done} étape${done > 1 ? 's' : ''} sur ${total} terminée${done > 1 ? 's' : ''}.`,
    state: { done: 'Fait', todo: 'À faire', waiting: 'En attente' },
    next: (next) => `Ensuite : ${next}`,
    setupNeedsAuthorization:
      'La configuration demande une autorisation Zendesk plus large : utilisez « Autoriser avec Zendesk » dans la section Configuration.',
    setupQueued:
      'Configuration en file d’attente : cette liste se met à jour quand elle est terminée.',
    sendTest: 'Envoyer une livraison de test',
    testRequested: 'Test demandé : l’étape est faite dès que la livraison arrive.',
  },
  incidentConnection: {
    enterKey: 'Saisissez la clé d’API.',
    enterClientId: 'Saisissez l’identifiant du client auquel la clé appartient.',
    saved: (clientName, clientId, setupStarting) =>
      `Enregistré : la clé fonctionne pour ${clientName} (${clientId}).${setupStarting ? ' La configuration démarre.' : ''}`,
    apiKey: 'Clé d’API du service d’incidents',
    keySet: (clientName) =>
      `Définie${clientName ? ` pour ${clientName}` : ''}. Laissez vide pour la conserver ; elle n’est plus jamais affichée.`,
    keyNotSet:
      'Non définie. La clé est vérifiée auprès du service d’incidents avant d’être enregistrée.',
    clientId: 'Identifiant client',
    subClients: 'Sous-clients',
    subClientsHint: 'Identifiants clients, séparés par des virgules.',
    checking: 'Vérification de la clé…',
    save: 'Enregistrer le service d’incidents',
  },
  connection: {
    title: 'Connexion à Zendesk',
    account: 'Compte',
    accountAt: (subdomain, url) => `${subdomain} sur ${url}`,
    state: 'État',
    stateLabel: {
      active: 'Jeton valide',
      reauthorization_required: 'Nouvelle autorisation requise',
      not_connected: 'Non connecté',
    },
    tokenRefused: 'Jeton refusé par Zendesk',
    authoriseAgain: 'Autoriser à nouveau',
    authoriseLink: 'Autoriser incident-desk avec Zendesk',
    grantedScopes: 'Portées accordées',
    none: 'aucune',
    missingScopes: 'Portées manquantes',
    missingScope: (scopes) => `portée manquante : ${scopes}`,
    accessExpires: 'Expiration du jeton d’accès',
    refreshExpires: 'Expiration du jeton d’actualisation',
    noRefreshToken: 'pas de jeton d’actualisation',
    lastProblem: 'Dernier problème',
    webhooks: 'Webhooks',
    lastFromZendesk: 'Dernier reçu de Zendesk',
    lastFromIncident: 'Dernier reçu du service d’incidents',
    lastWebhookTest: 'Dernier webhook.test',
    client: (clientId) => `Client ${clientId}`,
    lastRealEvent: 'dernier événement réel',
    noRealEvent: 'aucun événement réel pour l’instant',
    lastClientTest: ' ; dernier webhook.test ',
  },
  setup: {
    title: 'Configuration',
    state: 'État',
    label: {
      never_run: 'Pas encore lancée',
      queued: 'En file d’attente',
      running: 'En cours',
      succeeded: 'Terminée',
      failed: 'Échouée',
      needs_configuration: 'En attente de la clé d’API du service d’incidents',
      needs_authorization: 'Autorisation Zendesk requise',
    },
    requested: 'Demandée',
    finished: 'Terminée',
    outcome: 'Résultat',
    scopesAfter: 'Portées du jeton ensuite',
    runAgain: 'Relancer la configuration',
    queued: 'configuration en file d’attente',
    authorise: (subdomain) => `Autoriser la configuration de ${subdomain} avec Zendesk`,
  },
  ticketWrites: {
    stopped: 'Arrêtées',
    stoppedSentence:
      'Les mises à jour des tickets ne peuvent pas atteindre Zendesk tant que vous n’avez pas reconnecté incident-desk : Zendesk n’accepte plus son autorisation. Les modifications attendent et seront écrites ensuite.',
    waiting: 'Mises à jour en attente',
    retryNow: 'Réessayer maintenant',
    pausedUntil: (time) =>
      `Zendesk a demandé d’attendre jusqu’à ${time} : les mises à jour partiront alors.`,
    nothingPutOff:
      'Rien n’était différé : les mises à jour en attente sont déjà en cours d’écriture.',
    woken: (count) =>
      `${count === 1 ? '1 mise à jour part' : `${count} mises à jour partent`} vers Zendesk maintenant.`,
  },
  deadLetters: {
    title: 'Synchronisations en échec',
    commentForward: 'Transfert de commentaire',
    commentForwardOf: (ticketId) => `Transfert de commentaire du ticket n° ${ticketId}`,
    sync: 'Synchronisation',
    ticket: (ticketId) => `Ticket n° ${ticketId}`,
    backgroundJob: 'Tâche de fond',
    incident: (reference) => `Incident ${reference}`,
    technicalDetail: 'Détail technique',
    retry: 'Réessayer',
    queuedAgain: 'Remis en file d’attente.',
    retried: 'Relancés',
    notDoneYet: 'Pas encore fait',
    queuedAgainTag: 'Remis en file',
    retriedAt: 'relancé',
    stillListed:
      'Il figure encore ci-dessous ; rechargez dans un instant pour voir s’il est passé.',
    inBackground: 'Le worker le traite en arrière-plan ; s’il échoue à nouveau, il revient ici.',
    none: 'Aucune synchronisation en échec.',
  },
};
