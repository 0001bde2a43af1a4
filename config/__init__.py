"""The settings: every ``PERMITS_*`` variable of the environment, read in
one place (:mod:`config.settings`) and handed down as plain values.

The layers below (notices, the record, the permit core, date law) never
read the environment: whoever starts the work (a ``permits`` command, the
web app, the Prefect flow run by a deployment) reads :func:`load` once and
passes the data directory, the database URL, the uploads folder, the SMTP
server and the rest to what it calls.

May import: the standard library and the error root (:mod:`calendars.errors`);
it is read by the lightest commands.
Imported by: the interfaces, the service layer, the sweep and the demo.
"""

from .settings import SETTINGS, BadSetting, Setting, Settings, environment, load

__all__ = ["SETTINGS", "BadSetting", "Setting", "Settings", "environment", "load"]
