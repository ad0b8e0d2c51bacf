// The admin page in French, for admins whose Zendesk locale is French (fr, fr-FR, fr-CA...).
import type { Messages } from './en';
import { analyticsMessages } from './fr-analytics';
import { errorMessages } from './fr-errors';
import { failureMessages } from './fr-failures';

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
    stepLine: (step, target, outcome) => `${step} ${target} : ${outcome}`,
    step: {
      ticket_field: 'Champ de ticket',
      zendesk_webhook: 'Webhook Zendesk',
      trigger: 'Déclencheur',
      view: 'Vue',
      incident_subscription: 'Abonnement au service d’incidents',
      incident_test_delivery: 'Livraison de test',
    },
    stepOutcome: {
      created: 'créé',
      found: 'trouvé',
      updated: 'mis à jour',
      removed: 'supprimé',
      requested: 'demandée',
      failed: 'échec',
      skipped: 'ignoré',
    },
  },
  ticketWrites: {
    row: 'Mises à jour des tickets',
    authoriseAgainRow: 'Autoriser à nouveau',
    label: {
      failing: 'En échec',
      rateLimited: 'Limitées',
      recovering: 'En reprise',
      late: 'En retard',
      ok: 'À jour',
    },
    why: {
      zendesk_5xx: (status) => `Zendesk répond ${status ?? 'par une erreur serveur'}`,
      zendesk_timeout: 'Zendesk ne répond pas à temps',
      zendesk_connection: 'Zendesk est injoignable',
      zendesk_rate_limited: 'Zendesk répond 429, trop de requêtes pour ce compte',
      reauthorization_required: 'nouvelle autorisation requise',
      zendesk_forbidden: (detail) =>
        `Zendesk refuse l’accès (403${detail ? `, ${detail}` : ''}) : autorisez à nouveau incident-desk avec les portées qu’il demande`,
      zendesk_error: (status) =>
        status ? `Zendesk répond ${status}` : 'La réponse de Zendesk n’a pas pu être lue',
      not_configured: 'la connexion au service d’incidents n’est pas configurée',
    },
    noChangeWaiting: 'aucune modification en attente',
    backlog: (waiting, age) =>
      `${waiting === 1 ? '1 modification en attente' : `${waiting} modifications en attente`}, la plus ancienne depuis ${age}`,
    failingSentence: (rateLimited, since, why, backlog) =>
      `Les mises à jour des tickets ${rateLimited ? 'sont limitées' : 'échouent'} depuis ${since} : ${why} (${backlog}).`,
    recoveringSentence: (failedAt, backlog) =>
      `Zendesk accepte à nouveau les mises à jour des tickets${failedAt ? ` après l’échec de ${failedAt}` : ''} ; les modifications retenues sont en cours d’écriture (${backlog}).`,
    lateSentence: (backlog, after) =>
      `Les mises à jour des tickets sont en retard : ${backlog}, plus de ${after}, bien que Zendesk ne signale aucune erreur.`,
    okSentence: (backlog) =>
      backlog
        ? `Les mises à jour des tickets atteignent Zendesk (${backlog}).`
        : 'Les mises à jour des tickets atteignent Zendesk.',
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
  ...analyticsMessages,
  ...failureMessages,
  ...errorMessages,
  settings: {
    title: 'Paramètres',
    toggles: {
      forwardInternalNotes: [
        'Transférer les notes internes',
        'Les notes internes vont aussi à l’incident, pas seulement les réponses publiques.',
      ],
      solveOnTakedownSuccess: [
        'Résoudre en cas de retrait réussi',
        'Résoudre le ticket quand son incident atteint takedown_success.',
      ],
      openTicketsForDetectedIncidents: [
        'Ouvrir des tickets pour les incidents détectés',
        'Un incident détecté ailleurs ouvre un ticket.',
      ],
      createZendeskViews: [
        'Vues de file d’attente dans Zendesk',
        'La configuration crée deux vues partagées, « Retraits en attente d’approbation » et « Incidents demandant votre action » ; désactivée, la prochaine configuration les supprime.',
      ],
    },
    groupIdIsNumber:
      'Un identifiant de groupe est un nombre, par ex. 360001234567 ; laissez vide pour le groupe par défaut.',
    saved: 'Paramètres enregistrés.',
    save: 'Enregistrer les paramètres',
    incidentService: 'Service d’incidents',
  },
  groupField: {
    label: 'Groupe des nouveaux tickets',
    hint: 'Les tickets ouverts pour des incidents détectés vont à ce groupe Zendesk.',
    defaultGroup: 'Le groupe par défaut du compte',
    gone: (id) => `Groupe ${id} (n’existe plus dans Zendesk)`,
    reading: 'Lecture des groupes dans Zendesk…',
    emptyForDefault: (why) => `${why} Vide pour le groupe par défaut du compte.`,
    reconnect:
      'Reconnectez Zendesk pour choisir un groupe : Zendesk n’accepte plus l’autorisation d’incident-desk.',
    notReadable:
      'Zendesk ne permet pas à incident-desk de lire les groupes ; saisissez plutôt l’identifiant du groupe.',
    notListed:
      'Zendesk n’a pas pu lister les groupes pour l’instant ; saisissez plutôt l’identifiant du groupe.',
  },
  reconciliation: {
    title: 'File de rapprochement (tickets non liés)',
    ticket: (ticketId) => `Ticket n° ${ticketId}`,
    notLinked: (reason) => `Son signalement n’a pas pu être lié à un incident (${reason}).`,
    reasonWithDetail: (reason, detail) => `${reason} : ${detail}`,
    reason: {
      duplicate: 'doublon',
      'report outcome unknown': 'résultat du signalement inconnu',
      'link conflict': 'conflit de liaison',
    },
    explain:
      'Lier le rattache à l’incident que vous indiquez (vérifié d’abord auprès du service d’incidents). Réessayer signale à nouveau le ticket, exactement comme le bouton Réessayer de la barre latérale.',
    incidentId: 'Identifiant de l’incident',
    link: 'Lier',
    retry: 'Réessayer',
    linked: (incidentId) => `lié à l’incident ${incidentId}`,
    linkedStatus: 'lié',
    retried:
      'signalement remis en file : le worker le signale à nouveau ; il revient ici s’il ne peut pas être lié',
    retriedStatus: 'signalement remis en file',
    handled: 'Traités',
    backInQueue: ' ; il est de retour dans la file ci-dessous.',
    none: 'Aucun ticket n’attend d’être lié.',
  },
  disconnect: {
    title: 'Déconnexion',
    intro: (subdomain) =>
      `Arrêter incident-desk pour ${subdomain} et supprimer ce qu’il a créé dans Zendesk.`,
    open: 'Déconnecter…',
    heading: (subdomain) => `Déconnecter incident-desk de ${subdomain} ?`,
    removes: 'Ceci supprime, de façon définitive :',
    removed: [
      'les vues « Retraits en attente d’approbation » et « Incidents demandant votre action », les déclencheurs d’incident-desk et le webhook qu’ils notifient, dans Zendesk ;',
      'les abonnements webhook du service d’incidents pour vos clients ;',
      'l’autorisation Zendesk d’incident-desk (révoquée) et la clé d’API du service d’incidents ;',
      'ce qu’incident-desk conserve sur ce compte : les liens entre tickets et incidents et leur historique. Les incidents eux-mêmes restent dans le service d’incidents, et les notes restent sur les tickets.',
    ],
    fieldsKept:
      'Les champs de ticket Threat URL, Incident ID et Incident Status ne sont supprimés que si aucun ticket n’y a de valeur.',
    deleteFields: 'Supprimer les champs de ticket même si des tickets les utilisent',
    deleteFieldsHint: 'Leurs valeurs sont perdues sur tous les tickets.',
    authorizeFirst:
      'Zendesk doit d’abord autoriser la suppression : vous allez dans Zendesk pour l’autoriser, puis revenez ici pour confirmer.',
    cancel: 'Annuler',
    confirm: 'Déconnecter',
    disconnecting: 'Déconnexion…',
    close: 'Fermer',
  },
  disconnected: {
    title: (subdomain) => `incident-desk est déconnecté de ${subdomain}`,
    someFailed: 'Certains éléments n’ont pas pu être supprimés',
    removeByHand: (count) =>
      `Supprimez à la main les ${count} éléments marqués ci-dessous dans le Centre d’administration Zendesk ou le service d’incidents.`,
    signedOut: 'Vous êtes déconnecté.',
    installAgain: 'Installer à nouveau incident-desk',
    item: {
      view: 'Vue',
      trigger: 'Déclencheur',
      zendesk_webhook: 'Webhook Zendesk',
      ticket_field: 'Champ de ticket',
      incident_subscription: 'Abonnement au service d’incidents du client',
      oauth_token: 'Autorisation Zendesk',
      account_data: 'Données conservées',
    },
    outcome: {
      removed: 'supprimé',
      already_gone: 'déjà absent',
      kept: 'conservé',
      failed: 'non supprimé : supprimez-le à la main',
      skipped: 'non supprimé',
    },
  },
  disconnection: {
    app_uninstalled: {
      title: 'L’app incident-desk a été désinstallée de Zendesk',
      sentence:
        'incident-desk ne fonctionne plus pour ce compte : aucun ticket n’est mis à jour et aucun événement d’incident appliqué. Installez l’app dans Zendesk et autorisez à nouveau incident-desk pour reprendre, ou déconnectez-le pour supprimer ce que la configuration a créé dans Zendesk.',
    },
    authorization_lost: {
      title: 'Zendesk n’accepte plus l’autorisation d’incident-desk',
      sentence:
        'incident-desk ne fonctionne plus pour ce compte. Autorisez-le à nouveau avec Zendesk pour reprendre, ou déconnectez-le.',
    },
    admin_disconnect: {
      title: 'Une déconnexion ne s’est pas terminée',
      sentence:
        'incident-desk ne fonctionne plus pour ce compte. Déconnectez-le à nouveau pour terminer.',
    },
    since: 'depuis le',
    authoriseAgain: 'Autoriser à nouveau incident-desk avec Zendesk',
  },
};
