// French, as the sidebar speaks it (its fr.json for status names), with French typography: a
// narrow no-break space (U+202F) before ":", ";", "?" and "!", and « » around quoted names.
import type { NoteTexts, ReportMode } from './note-texts';
import type { SkipReason, ThreatProblem, UnlinkedReason } from './note-reasons';

/** The narrow no-break space French puts before ":", ";", "?" and "!". */
const S = '\u202f';

const MODE: Record<ReportMode, string> = { takedown: 'le retrait', monitor: 'la surveillance' };

const ACTION = {
  tkd: { request: 'Demande de retrait', done: 'Retrait demandé.' },
  monitor: { request: 'Demande de surveillance', done: 'Surveillance demandée.' },
  safe: { request: 'Demande de marquage comme sûr', done: 'Marqué comme sûr.' },
} as const;

const OUTCOME: Record<string, string> = {
  success: 'retiré',
  failed: 'échec',
  not_actionable: 'non traitable',
  closed: 'clos sans résultat',
};

const LABELS: Record<string, { label: string; meaning: string }> = {
  pending_review: {
    label: "En attente d'examen",
    meaning: 'Signalé, pas encore examiné par un analyste.',
  },
  case_building: {
    label: 'Constitution du dossier',
    meaning: 'Un analyste examine, choisit un plan et rassemble des preuves.',
  },
  approval_required: {
    label: 'Approbation requise',
    meaning: 'Le retrait attend votre approbation.',
  },
  takedown_ready: { label: 'Retrait prêt', meaning: 'Le retrait est approuvé et va commencer.' },
  pre_weaponised: {
    label: 'Surveillance',
    meaning: `Placé sous surveillance${S}: pas encore nuisible, surveillé pour détecter des changements.`,
  },
  takedown_in_progress: {
    label: 'Retrait en cours',
    meaning: "Le retrait a commencé et n'est pas encore terminé.",
  },
  takedown_success: { label: 'Retiré', meaning: 'Le retrait a abouti.' },
  takedown_attempt_failed: {
    label: 'Retrait échoué',
    meaning: 'Un retrait a été tenté sans succès.',
  },
  blocklisted: {
    label: 'Sur liste de blocage',
    meaning: `Inscrit sur des listes de blocage partenaires${S}; aucun retrait effectué.`,
  },
  action_required: {
    label: 'Action requise',
    meaning: 'Le service attend une action de votre organisation.',
  },
  closed: { label: 'Clos', meaning: 'Résolu ou clos.' },
};

const plural = (count: number, one: string, many: string) => (count <= 1 ? one : many);

function bytes(count: number): string {
  return `${count.toLocaleString('fr-FR')} ${plural(count, 'octet', 'octets')}`;
}

function answered(status: number | null): string {
  return status === null ? '' : ` (réponse ${status})`;
}

function skip(reason: SkipReason): string {
  switch (reason.kind) {
    case 'unsupported_type':
      return `${reason.type ?? 'type inconnu'} n'est pas un type de preuve accepté`;
    case 'too_large':
      return (
        `trop volumineux${S}: ${reason.size === undefined ? 'plus que les' : `${bytes(reason.size)}, au-delà des`} ` +
        `${bytes(reason.maxBytes)} qu'un envoi peut contenir (le service d'incidents accepte ` +
        `${bytes(reason.requestMaxBytes)} par requête, nom et type du fichier compris)`
      );
    case 'download_refused':
      return FR.evidence.refusal[reason.refusal];
    case 'download_gone':
      return "Zendesk n'a plus ce fichier";
    case 'download_answered':
      return `Zendesk a répondu ${reason.status} à son téléchargement`;
    case 'download_timed_out':
      return 'son téléchargement a expiré';
    case 'download_unreachable':
      return "son téléchargement n'a pas pu se connecter";
    case 'download_bad_address':
      return "son adresse de téléchargement n'est pas une adresse web";
    case 'download_failed':
      return 'son téléchargement a échoué';
    case 'upload_unavailable':
      return `le service d'incidents était indisponible${answered(reason.status)}${S}; il n'a pas été envoyé`;
    case 'upload_unknown':
      return `l'issue de l'envoi est inconnue${reason.status === null ? ' (pas de réponse)' : answered(reason.status)}${S}; il n'est pas renvoyé, pour éviter un doublon`;
    case 'upload_refused':
      return `le service d'incidents l'a refusé${answered(reason.status)}`;
  }
}

function problem(reason: ThreatProblem): string {
  switch (reason.kind) {
    case 'empty':
      return 'le champ Menace est vide';
    case 'digits_only':
      return `le champ Menace ne contient que des chiffres${S}: un numéro de téléphone s'écrit au format international avec + et l'indicatif du pays, une adresse IPv4 avec quatre nombres`;
    case 'not_reportable':
      return `la valeur du champ Menace ne peut pas être signalée (${reason.issues})`;
  }
}

function unlinked(reason: UnlinkedReason): string {
  switch (reason.kind) {
    case 'duplicate':
      return reason.status === 409 ? 'réponse 409' : "réponse sans identifiant d'incident";
    case 'lost_answer':
      return `la requête de signalement a échoué en cours de route (${reason.failure})`;
    case 'stopped_while_sending':
      return "une tentative précédente s'est arrêtée pendant l'envoi du signalement";
    case 'ticket_being_opened':
      return `signalé comme incident ${reason.incidentId}, mais un ticket est en cours d'ouverture pour cet incident`;
    case 'link_collides':
      return `signalé comme incident ${reason.incidentId}, mais le lien entre en conflit avec ${reason.other}`;
  }
}

export const FR: NoteTexts = {
  status: {
    labels: Object.fromEntries(Object.entries(LABELS).map(([k, v]) => [k, v.label])),
    meanings: Object.fromEntries(Object.entries(LABELS).map(([k, v]) => [k, v.meaning])),
  },

  change: {
    titleOne: "Mise à jour de l'incident",
    titleMany: (count) => `Mises à jour de l'incident (${count})`,
    status: (label) => `Statut${S}: ${label}`,
    statusNotGiven: "Le statut a changé (le nouveau statut n'a pas été donné).",
    analyst: (message) => `Analyste${S}: ${message}`,
    superseded: (current) =>
      `Ce changement est plus ancien qu'un autre déjà affiché${S}; le champ Statut reste ${current === null ? 'tel quel' : `à ${current}`}.`,
    nextStepApproval: `Étape suivante${S}: approuvez le retrait avec «${'\u202f'}Approuver le retrait${'\u202f'}» dans la barre latérale incident-desk, ou répondez s'il ne doit pas avoir lieu.`,
    nextStepAction: `Étape suivante${S}: faites ce que demande l'analyste, puis répondez par une réponse publique sur ce ticket (elle parvient à l'analyste).`,
    historyUpdated: "L'incident a été mis à jour.",
    actionRequired: `Action requise${S}: l'analyste attend une action de votre organisation.`,
    request: (reason) => `Demande${S}: ${reason}`,
    noReason: "Aucune raison n'a été donnée.",
    newerShown: `Une mise à jour plus récente était déjà affichée${S}: le statut du ticket est resté tel quel.`,
    dashboard: (url) => `Tableau de bord${S}: ${url}`,
  },

  takedown: {
    listed: (names) =>
      `Inscrit sur ${names.length} ${plural(names.length, 'liste', 'listes')} de blocage${S}: ${names.join(', ')}.`,
    submitted: (names) =>
      `Soumis à ${names.length} ${plural(names.length, 'liste', 'listes')} de blocage, protection en cours${S}: ${names.join(', ')}.`,
    attemptsSent: (from, to, registrar) =>
      `${from === to ? `Tentative de retrait ${to} envoyée` : `Tentatives de retrait ${from} à ${to} envoyées`} au bureau d'enregistrement${registrar ? ` (${registrar})` : ''}.`,
    attemptEnded: (number, outcome) =>
      `Tentative de retrait ${number}${S}: ${OUTCOME[outcome] ?? outcome}.`,
    snapshots: (count) => (count === 1 ? 'Nouvelle capture.' : `${count} nouvelles captures.`),
  },

  detected: {
    intro: `Le service d'incidents a détecté un incident qu'aucun ticket ne suivait${S}; ce ticket le suit.`,
    introWithoutDetail: `Le service d'incidents a signalé un incident qu'aucun ticket ne suivait${S}; ce ticket le suit.`,
    detailUnreadable: `Ses détails n'ont pas pu être lus${S}; ouvrez l'incident dans le tableau de bord.`,
    line: (label, value) => `${label}${S}: ${value}`,
    labels: {
      threat: 'Menace',
      domain: 'Domaine',
      type: 'Type',
      status: 'Statut',
      taxonomy: 'Taxonomie',
      registrar: "Bureau d'enregistrement",
      hostingProvider: 'Hébergeur',
      blocklists: 'Listes de blocage',
      whois: '- WHOIS',
      certificate: '- Certificat',
      hosting: '- Hébergement',
      dnsRecords: '- Enregistrements DNS',
      pageTitle: '- Titre de la page',
      finalUrl: '- URL finale',
    },
    notAvailable: 'non disponible',
    incidentClass: (value) => ` (classe ${value})`,
    difficulty: (value) => ` (difficulté de retrait ${value})`,
    noneSubmitted: 'aucune soumission',
    submittedInProgress: 'soumis (protection en cours)',
    unknown: 'inconnu',
    unknownPartner: 'partenaire inconnu',
    unknownType: 'type inconnu',
    since: (date) => ` depuis ${date}`,
    insights: (time) => `Analyses (capture ${time ?? 'à une date inconnue'})${S}:`,
    noInsights: `Analyses${S}: aucune capture pour l'instant`,
    registrarUnknown: "bureau d'enregistrement inconnu",
    daysOld: (days) => `créé il y a ${days} jours`,
    ageUndetermined: 'âge indéterminé',
    newlyRegistered: ', enregistré récemment',
    valid: 'valide',
    invalid: 'non valide',
    validityUndetermined: 'validité indéterminée',
    issuerUnknown: 'émetteur inconnu',
    providersUnknown: 'hébergeurs inconnus',
    behindCdn: (name) => `, derrière le CDN ${name}`.trimEnd(),
    noCategory: '- aucune catégorie capturée',
    genericThreat: 'menace inconnue',
  },

  report: {
    invalidThreat: (reason, shown, submitTag) =>
      `Non signalé au service d'incidents${S}: ${problem(reason)}${shown ? ` (${shown})` : ''}. ` +
      `Saisissez une URL, un domaine, une adresse e-mail, un numéro de téléphone E.164 (comme +33612345678) ou une adresse IPv4 ` +
      `dans le champ Menace et ajoutez de nouveau l'étiquette ${submitTag}.`,
    unavailable: (mode, failure, submitTag) =>
      `Le service d'incidents était indisponible pour le signalement pour ${MODE[mode]} (${failure}). Rien n'a été signalé${S}; ajoutez de nouveau l'étiquette ${submitTag} pour réessayer.`,
    refused: (mode, failure, submitTag) =>
      `Le service d'incidents a refusé le signalement pour ${MODE[mode]} (${failure}). Rien n'a été signalé${S}; corrigez ce qu'il indique et ajoutez de nouveau l'étiquette ${submitTag}.`,
    reported: (mode, threat, incidentField) =>
      `Signalé au service d'incidents pour ${MODE[mode]}${threat ? `${S}: ${threat}` : ''}. ID de l'incident${S}: ${incidentField}.`,
    duplicate: (reason) =>
      `Le service d'incidents a déjà un incident pour cette menace (${reason}). Le ticket n'a pas été relié et n'est pas signalé de nouveau${S}; il attend dans la file de rapprochement qu'un administrateur le relie.`,
    notLinked: (mode, reason) =>
      `Le signalement pour ${MODE[mode]} n'a pas pu être relié${S}: ${reason}. Le ticket n'a pas été relié et n'est pas signalé de nouveau${S}; il attend dans la file de rapprochement qu'un administrateur le relie.`,
    unlinked,
  },

  actions: {
    notLinked: (action) =>
      `${ACTION[action].request} non envoyée${S}: ce ticket n'est relié à aucun incident.`,
    outcomeUnknown: (action, why, tag) =>
      `${ACTION[action].request}${S}: ${why}, elle a donc pu parvenir au service ou non. Vérifiez l'incident${S}; ajoutez de nouveau l'étiquette ${tag} pour l'envoyer de nouveau.`,
    stoppedWhileSending: "le connecteur s'est arrêté pendant l'envoi, ou a perdu la réponse",
    answerLost: (failure) => `la réponse a été perdue (${failure})`,
    failed: (action, failure, tag) =>
      `${ACTION[action].request} échouée${S}: ${failure}. Ajoutez de nouveau l'étiquette ${tag} pour réessayer.`,
    done: (action) => ACTION[action].done,
    serviceRefused: "le service l'a refusée",
  },

  link: {
    linkedByAdmin: (incidentId, person) =>
      `Relié à l'incident ${incidentId} par ${person} depuis la page d'administration.`,
    retried: (person) =>
      `Le lien sera retenté${S}: la menace est signalée de nouveau (à la demande de ${person}).`,
    linkedToExisting: (incidentId, person) =>
      `Relié à l'incident ${incidentId} par ${person} au lieu d'un nouveau signalement (le service d'incidents l'avait déjà).`,
  },

  evidence: {
    notSent: `Non envoyés à l'incident comme preuves${S}:`,
    notSentAtReport: `Non envoyés à l'incident comme preuves (fichiers présents sur le ticket lors du signalement)${S}:`,
    notForwarded: `Non transmis à l'incident${S}:`,
    file: (name, reason) => `${name}${S}: ${reason}`,
    noName: '(sans nom)',
    skip,
    refusal: {
      host_not_allowed:
        "son adresse de téléchargement n'est ni le Zendesk de ce compte ni un hôte de pièces jointes de Zendesk, il n'a donc pas été récupéré",
      not_https: "son adresse de téléchargement n'utilise pas HTTPS, il n'a donc pas été récupéré",
      private_address:
        "son adresse de téléchargement mène à une adresse de réseau privé ou local, il n'a donc pas été récupéré",
      too_many_redirects: 'son téléchargement a été redirigé trop de fois',
      bad_redirect:
        "son téléchargement a été redirigé vers une adresse qui n'est pas une adresse web",
    },
    forwardFailure: (failure) =>
      failure.kind === 'outcome_unknown'
        ? `issue inconnue (${failure.failure})${S}; non renvoyé, pour éviter un doublon`
        : `non transmis (${failure.failure})`,
    comment: (commentId, why) => `commentaire ${commentId}${S}: ${why}`,
  },
};
