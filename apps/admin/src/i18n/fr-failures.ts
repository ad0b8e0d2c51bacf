// The French for what the connector reports in codes (en-failures.ts says what each text is).
import type { failureMessages as en } from './en-failures';

export const failureMessages: typeof en = {
  failedSync: {
    work: {
      ticket_report: 'Le signalement de la menace du ticket au service d’incidents a échoué.',
      ticket_comments: 'Le transfert des nouveaux commentaires du ticket vers l’incident a échoué.',
      ticket_action: 'L’envoi de la demande d’action du ticket à l’incident a échoué.',
      ticket_change: 'L’envoi d’une modification du ticket au service d’incidents a échoué.',
      incident_update: 'L’application d’une mise à jour de l’incident à son ticket a échoué.',
      ticket_write: 'L’écriture des changements de l’incident dans le ticket a échoué.',
      account_setup: 'La configuration du compte a échoué à chaque tentative.',
      comment_forward: 'Le transfert d’un commentaire du ticket vers l’incident a échoué.',
      background_job: 'Une tâche de fond a échoué.',
    },
    retryDoes: {
      ticket_report:
        'Réessayer relit le ticket tel qu’il est maintenant et signale sa menace si le ticket le demande encore, une fois ; une menace refusée a retiré l’étiquette d’envoi : corrigez plutôt la menace et ajoutez de nouveau l’étiquette. Un signalement dont l’issue est inconnue n’est jamais envoyé deux fois.',
      ticket_comments:
        'Réessayer remet en file la modification du ticket ; les commentaires déjà transférés ne sont pas renvoyés.',
      ticket_action:
        'Réessayer remet en file la modification du ticket ; les commentaires déjà transférés ne sont pas renvoyés.',
      ticket_change:
        'Réessayer remet en file la modification du ticket ; les commentaires déjà transférés ne sont pas renvoyés.',
      incident_update: 'Réessayer applique de nouveau l’état actuel de l’incident au ticket.',
      ticket_write:
        'Zendesk a refusé ce changement définitivement (ticket clos ou supprimé) : il ne peut pas être réessayé.',
      account_setup: 'Réessayer relance la configuration.',
      comment_forward:
        'Réessayer transfère de nouveau ce commentaire au prochain passage des commentaires ; rien d’autre n’est renvoyé.',
      background_job: 'Réessayer remet la tâche en file.',
    },
    party: {
      incident_service: 'Le service d’incidents',
      zendesk: 'Zendesk',
      other_side: 'L’autre partie',
    },
    status: {
      400: 'a refusé la requête comme invalide',
      401: 'a refusé les identifiants',
      403: 'ne l’a pas autorisé',
      404: 'ne l’a pas trouvé',
      409: 'a signalé un conflit',
      413: 'l’a jugé trop volumineux',
      422: 'a refusé les données',
      429: 'a demandé de ralentir (limite de débit)',
      500: 'a eu une erreur interne',
      502: 'était injoignable derrière une passerelle',
      503: 'était temporairement indisponible',
      504: 'n’a pas répondu à temps',
    },
    serverError: 'a eu une erreur serveur',
    refused: 'a refusé la requête',
    httpStatus: (party, words, status) => `${party} ${words} (HTTP ${status}).`,
    timeout: (party) => `${party} n’a pas répondu à temps.`,
    unreachable: (party) => `${party} n’a pas pu être joint.`,
    stoppedWith: (reason) => `Arrêt sur : ${reason}`,
    noReason: 'L’échec n’a pas de raison enregistrée.',
    outcomeUnknown:
      'Le worker s’est arrêté pendant l’envoi : l’incident a peut-être reçu le commentaire, peut-être pas. Vérifiez l’incident avant de réessayer.',
    unknownProblem: 'L’opération a échoué ; le détail technique ci-dessous dit pourquoi.',
  },
  setupOutcome: {
    finished: 'Configuration terminée.',
    finishedWithFailures: (failedSteps) =>
      `Configuration terminée avec ${failedSteps} étape(s) en échec.`,
    ranTooLong:
      'Configuration arrêtée : elle a dépassé son temps limite (Zendesk ou le service d’incidents a répondu trop lentement) ; elle est relancée',
    accountUnavailable: (reason) =>
      `Configuration arrêtée : le compte ne peut pas agir : ${reason}`,
    accountReason: {
      unknown_account: 'compte inconnu',
      reauthorization_required: 'nouvelle autorisation nécessaire',
      not_configured: 'non configuré',
      disconnected: 'déconnecté',
    },
    stopped: (reason) => `Configuration arrêtée : ${reason}`,
    disconnected: (reason) =>
      `incident-desk est déconnecté de ce compte Zendesk (${reason}) : installez-le de nouveau avant de lancer la configuration.`,
    disconnectReason: {
      app_uninstalled: 'application désinstallée',
      authorization_lost: 'autorisation perdue',
      admin_disconnect: 'déconnexion par un admin',
    },
    reauthorizationRequired:
      'Zendesk doit être autorisé de nouveau avant que la configuration puisse s’exécuter.',
    needsConfiguration:
      'Enregistrez la clé d’API du service d’incidents et l’identifiant client, puis lancez la configuration.',
    needsSetupScopes: (granted, needed) =>
      `Le jeton enregistré a « ${granted} » ; la configuration a besoin de « ${needed} ». Autorisez la configuration avec Zendesk depuis cette page.`,
    webhookTest: (text) => ` Test du webhook par Zendesk : ${text}`,
    keptWider: (scope) =>
      ` Zendesk a conservé des portées au-delà du fonctionnement courant (${scope}).`,
    notNarrowed: (scope, reason) =>
      ` Le jeton n’a pas pu être restreint à « ${scope} » : ${reason}.`,
    unknownOk: 'Configuration terminée.',
    unknownFailed:
      'La configuration n’a pas abouti ; les lignes ci-dessous disent ce que chaque étape a fait.',
  },
  unlinkedWhy: {
    duplicateConflict: 'réponse 409',
    duplicateNoId: 'réponse sans identifiant d’incident',
    lostAnswer: (failure) => `la demande de signalement a échoué en cours de route (${failure})`,
    stoppedWhileSending: 'une tentative précédente s’est arrêtée pendant l’envoi du signalement',
    ticketBeingOpened: (incidentId) =>
      `signalé comme incident ${incidentId}, mais un ticket est en cours d’ouverture pour cet incident`,
    linkCollides: (incidentId, other) =>
      `signalé comme incident ${incidentId}, mais la liaison entre en conflit avec ${other}`,
    unknown: 'pour une raison que cette page ne sait pas nommer',
  },
  zendeskWebhookTest: {
    trouble: {
      needs_permission:
        'Zendesk ne laisse tester son webhook qu’à un jeton ayant la permission webhooks, et incident-desk en garde un plus restreint après la configuration ; la configuration le teste à sa fin.',
      no_webhook: 'Le webhook Zendesk n’existe pas encore : lancez d’abord la configuration.',
      failed: 'Zendesk n’a pas exécuté le test du webhook ; réessayez dans un instant.',
    },
    refused: (status) =>
      `Zendesk a envoyé le test, et le connecteur a répondu ${status || 'rien'} : vérifiez que Zendesk peut joindre l’adresse publique du connecteur.`,
    unknown: 'Le test du webhook par Zendesk n’est pas arrivé ; réessayez dans un instant.',
    clientRefused:
      'le service d’incidents n’a pas accepté la demande de test ; relancez la configuration',
  },
};
