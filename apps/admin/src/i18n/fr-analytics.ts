// The analytics section's and its charts' texts in French.
import type { Messages } from './en';

export const analyticsMessages: Pick<Messages, 'analytics' | 'charts'> = {
  analytics: {
    title: 'Statistiques des retraits',
    intro:
      'Les incidents des dernières semaines selon le service d’incidents, avec les propres relevés de signalements de ce connecteur. Les chiffres de chaque graphique se téléchargent en CSV.',
    client: 'Client du service d’incidents',
    allClients: 'Tous les clients de ce compte',
    reload: 'Recharger les statistiques',
    loading: 'Chargement des statistiques',
    noAnalytics: 'Pas encore de statistiques',
    loadFailed: 'Les statistiques n’ont pas pu se charger',
    saveKeyFirst:
      'Enregistrez la clé d’API du service d’incidents ci-dessus : les statistiques lisent ce service.',
    since: 'Depuis le',
    period: (weeks, total) => ` (${weeks} semaines) : ${total} incidents.`,
    partial: 'Certains chiffres sont incomplets',
    stackBy: 'Empiler les incidents par semaine selon',
    byOutcome: 'Résultat',
    byType: 'Type d’incident',
    outcome: {
      taken_down: 'retiré',
      in_progress: 'en cours',
      waiting_on_customer: 'en attente de votre part',
      blocklisted: 'sur liste de blocage',
      failed: 'retrait échoué',
      closed: 'clos',
      report_failed: 'signalement refusé',
    },
    bucket: {
      'under 1 day': 'moins d’un jour',
      '1 to 3 days': '1 à 3 jours',
      '3 to 7 days': '3 à 7 jours',
      'over 7 days': 'plus de 7 jours',
    },
    part: {
      credits: 'crédits',
      incidents: 'incidents',
      'takedown attempts': 'tentatives de retrait',
      'waiting on the customer': 'en attente de votre part',
    },
    weekOf: (week) => `semaine du ${week}`,
    hours: (h) => `${h} h`,
    days: (d) => `${d.toLocaleString('fr')} j`,
    notApplicable: 's.o.',
    median: (duration) => `médiane ${duration}`,
    weeklyTitle: 'Incidents signalés par semaine',
    weeklyDescription: (byType) =>
      `Incidents par semaine, empilés par ${byType ? 'type d’incident' : 'résultat'}.`,
    noIncidents: 'Aucun incident pendant ces semaines.',
    timeTitle: (byHosting) =>
      `Délai entre signalement et retrait par ${byHosting ? 'hébergeur' : 'bureau d’enregistrement'}`,
    timeDescription: (byHosting) =>
      `Incidents retirés par ${byHosting ? 'hébergeur' : 'bureau d’enregistrement'}, selon la durée du retrait, avec la médiane.`,
    noTakedown: 'Aucun retrait pendant ces semaines.',
    overallMedian: (duration, count) =>
      `Médiane sur tous les retraits : ${duration} (${count} retraits)`,
    successTitle: 'Taux de réussite des retraits',
    successByAttempts: 'Tentatives de retrait abouties par client : réussies et échouées.',
    successByStatus:
      'Incidents par client selon leur statut actuel (les tentatives de retrait n’ont pas pu être lues).',
    succeeded: 'réussis',
    failed: 'échoués',
    rateOf: (rate, count) => `${rate} sur ${count}`,
    blocklistTitle: 'Couverture des listes de blocage',
    blocklistDescription:
      'Inscriptions par autorité de liste de blocage : inscrites, et soumises (en attente du partenaire).',
    listed: 'inscrits',
    submitted: 'soumis',
    noListing: 'Aucune inscription sur une liste de blocage pendant ces semaines.',
    coverage: (covered, incidents, rate) =>
      `${covered} des ${incidents} incidents lus sont inscrits sur une liste de blocage (${rate}).`,
    creditsTitle: 'Crédits utilisés',
    creditsDescription:
      'Retraits lancés par client pendant ces semaines (chaque approbation consomme un crédit chez les clients qui en utilisent), avec les crédits restants.',
    takedownsStarted: 'retraits lancés',
    creditsNote: (started, left) => `${started} lancés, ${left} restants`,
    creditsNotUsed: 'non utilisés',
    creditsUnknown: 'inconnus',
    waitingTitle: 'En attente de votre part (action requise)',
    waitingDescription:
      'Incidents ouverts pour lesquels le service attend ce compte, par jours d’attente.',
    daysWaiting: 'jours d’attente',
    nothingWaits: 'Rien n’attend d’action de votre part.',
    waitingTable: 'Incidents en attente de votre part',
    waitingColumns: ['Incident', 'Client', 'En attente depuis', 'Jours', 'Ticket'],
    noTicket: 'aucun',
  },
  charts: {
    noData: 'Pas encore de données.',
    legendOf: (title) => `Légende de « ${title} »`,
    numbersOf: (title) => `Chiffres de « ${title} »`,
    note: 'Remarque',
    downloadCsv: (title) => `Télécharger les chiffres de « ${title} » (CSV)`,
  },
};
