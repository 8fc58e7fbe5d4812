"""Messages the bot no longer writes, which logs written before still hold.

A log entry keeps its message's template (text is data: :mod:`bot.engine.text`), and only the code's
own templates are ever formatted again, when the log is read or an export carrying it is imported
(:func:`bot.campaign.codec.decode_log`). A template the code stops writing is kept here, translated
like any other, so that older logs and exports still read and load.
"""

from __future__ import annotations

from bot.engine.text import Msg

FORMER_MESSAGES: tuple[Msg, ...] = (
    # Until the turn-end message pointed players at /campaign verify instead of a command line.
    Msg("Turn {turn} is over; its dice seed was {seed} (SHA-256 {sha256}). Check every roll "
        "with `python -m bot verify`.", turn=0, seed="", sha256=""),
    # Until counts had their plural forms (issue 14: "1 battle(s)" in every language).
    Msg("Phase 2 resolved: {battles} battle(s).", battles=0),
    Msg("{who} is away for {days} day(s).", who="", days=0),
    # Until a campaign ended when one camp, not one side, was left (RU-25).
    Msg("The campaign is over: {winner} prevails.", winner=""),
    # Written as plain text (no message kept) before the campaign core: older exports' logs hold it.
    Msg("Phase 4 resolved."),
    # Until an import told each side privately how many of its declarations to give again (issue 24, item 8).
    Msg.plural(0, "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before "
                  "the export cannot be verified, and the order or move declared in this phase ({n}) is to be given "
                  "again.",
               "The dice of turn {turn} are drawn anew from a fresh secret seed: rolls of turn {turn} made before the "
               "export cannot be verified, and the orders or moves declared in this phase ({n}) are to be given again.",
               turn=0),
    # Until each count and each wind was a whole message of its own (issue 23: "1 morts", "vent aucune").
    Msg("Weather (house rule RU-10): {weather}{mod}, wind {wind}.", weather="", mod="", wind=""),
    Msg("{force}: {sp} SP killed in {unit} take the wounded check (MC-7.1)", force="", sp=0, unit=""),
    Msg("{force}: {sp} SP of {unit} take the deserter check (MC-7.2), {outright} desert outright (RU-6)",
        force="", sp=0, unit="", outright=0),
    Msg("{force}: {sp} SP of {unit} take the deserter check (MC-7.2)", force="", sp=0, unit=""),
    Msg("{unit}: {dead} dead, {wounded} wounded return, {deserted} deserted, {returned} return to the ranks: "
        "{before} -> {after} SP", unit="", dead=0, wounded=0, deserted=0, returned=0, before=0, after=0),
    Msg("{n} {label}", n=0, label=""),
    # Until a setting's name was shown as the name one types (issue 23).
    Msg("The GM set {name} to {value!r}.", name="", value=""),
    Msg("The GM set {name} to {shown!r}.", name="", shown=""),
    # Until a setting was named in the reader's words, not by its identifier (issue 23).
    Msg("The GM set `{name}` to {value!r}.", name="", value=""),
    Msg("The GM set `{name}` to {shown!r}.", name="", shown=""),
)
