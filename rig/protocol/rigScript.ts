// The a2a-rig script convention, shared by the reference agent (which follows scripts) and the
// engine (which writes them): where a script travels and how an agent says it follows them.

/** Key of the script in the first message's data part: {"a2a-rig/script": {"steps": [...]}}. */
export const SCRIPT_KEY = 'a2a-rig/script';
/** The agent-card skill id of an agent that follows a2a-rig scripts. */
export const SCRIPTED_SKILL_ID = 'scripted-hitl';
/** Event metadata key of the status event that signals an elapsed deadline (S-4). */
export const DEADLINE_ELAPSED_KEY = 'a2a-rig/deadline-elapsed';
