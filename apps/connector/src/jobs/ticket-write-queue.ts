// The account writer's work is not a pg-boss queue but its changes' rows; this name marks its dead
// letters (a ticket write Zendesk refused for good) beside the queues' own.
export const TICKET_WRITE_QUEUE = 'ticket-write';
