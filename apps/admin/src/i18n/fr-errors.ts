// The French for the connector's refusals of an admin action (en-errors.ts says what each is).
import type { errorMessages as en } from './en-errors';

export const errorMessages: typeof en = {
  actionError: {
    code: {
      api_key_refused:
        'Le service d’incidents a refusé cette clé d’API. Vérifiez qu’elle a été copiée en entier et qu’elle est toujours active ; rien n’a été enregistré.',
      incident_unreachable:
        'Le service d’incidents n’a pas pu être joint pour vérifier la clé ; rien n’a été enregistré. Réessayez.',
      incident_check_failed:
        'Le service d’incidents n’a pas pu vérifier la clé ; rien n’a été enregistré. Réessayez.',
      client_not_covered:
        'Cette clé d’API ne couvre pas tous les clients indiqués ; rien n’a été enregistré.',
      api_key_required: 'La clé d’API du service d’incidents n’est pas encore définie.',
      no_incident_service: 'Aucun service d’incidents n’est configuré pour ce connecteur.',
      invalid_connection:
        'Les identifiants client n’ont pas été acceptés ; vérifiez-les et enregistrez de nouveau.',
      invalid_settings:
        'Les paramètres n’ont pas été acceptés ; vérifiez les valeurs et enregistrez de nouveau.',
      invalid_own_domains:
        'Les domaines n’ont pas été acceptés ; vérifiez-les et enregistrez de nouveau.',
      invalid_body: 'La demande n’a pas été acceptée ; rechargez la page et réessayez.',
      no_subscription:
        'Il n’y a pas encore d’abonnement au service d’incidents : lancez d’abord la configuration.',
      not_found: 'Cet élément n’existe plus : rechargez la page.',
      conflict: 'La tâche ne peut pas être remise en file maintenant ; réessayez plus tard.',
      invalid_incident_id: 'Ce n’est pas un identifiant d’incident.',
      unknown_incident: 'Le service d’incidents ne connaît pas cet incident pour ce compte.',
      already_linked: 'Ce ticket ou cet incident est déjà lié.',
      in_progress:
        'Une opération est encore en cours pour ce compte : réessayez une fois qu’elle sera terminée.',
      authorization_needed:
        'La configuration demande une autorisation Zendesk plus large : autorisez-la avec Zendesk.',
      reauthorization_required:
        'Zendesk n’accepte plus l’autorisation d’incident-desk : reconnectez Zendesk pour continuer.',
      unknown_account: 'Ce compte n’est pas connecté à incident-desk.',
      not_configured: 'La clé d’API du service d’incidents n’est pas encore enregistrée.',
      disconnected: 'incident-desk est déconnecté de ce compte Zendesk.',
      ticket_not_found: 'Zendesk n’a plus ce ticket.',
      zendesk_unavailable: 'Zendesk n’a pas pu être joint ou a répondu par une erreur ; réessayez.',
      not_signed_in: 'Connectez-vous d’abord avec Zendesk.',
      not_admin: 'Vous n’êtes plus admin Zendesk de ce compte.',
      role_unconfirmed: 'Zendesk n’a pas pu confirmer votre rôle ; reconnectez-vous.',
      csrf: 'La session de la page a changé ; rechargez la page et réessayez.',
    },
    clientNotCovered: (missing, covered) =>
      `Cette clé d’API ne couvre pas ${missing} ; elle couvre ${covered}. Rien n’a été enregistré.`,
    noClient: 'aucun client',
    incidentServiceBusy: (seconds) =>
      `Le service d’incidents limite les requêtes : réessayez dans ${seconds} s.`,
    zendeskBusy: (seconds) =>
      `Zendesk limite les mises à jour de tickets de ce compte : réessayez dans ${seconds} s.`,
    busyShortly: 'Trop de requêtes en ce moment : réessayez dans un instant.',
    unknown: (status) => `Le connecteur a refusé l’action (HTTP ${status}).`,
  },
};
