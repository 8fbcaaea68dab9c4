"""Referee accounts and their login sessions (no web framework: the CLI uses this too).

- Accounts (``RefereeAccount`` rows in the tournament database) belong to one tournament; the
  organiser creates them with ``guobiao tournament referee NAME --add USER``, which prints a
  generated password once. Only its scrypt hash is stored (``hash_password``: random 16-byte salt,
  n=2**14, r=8, p=1); ``verify_password`` compares in constant time.
- A login session is a signed cookie (``SessionSigner``): the account, its tournament, an expiry
  and a random nonce, with an HMAC-SHA256 over them under the server's secret key. It also holds
  a fingerprint of the account's password hash, so a password reset or a removal ends every
  session of that account at once. The CSRF token of a session is an HMAC of its nonce: a page
  gets it after logging in and sends it in the ``X-CSRF-Token`` header of every POST.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from guobiao.tournament.store import Store

__all__ = [
    "ROLES",
    "Account",
    "AccountError",
    "Login",
    "SessionSigner",
    "add_account",
    "authenticate",
    "find_account",
    "hash_password",
    "list_accounts",
    "new_password",
    "remove_account",
    "reset_password",
    "verify_password",
]

ROLES = ("referee", "organiser")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
_DUMMY_HASH = ""  # computed on first use: a failed login for an unknown name costs the same


class AccountError(Exception):
    """A refused account operation (unknown tournament, a name taken, no such account)."""


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    tournament: str
    tournament_id: int
    username: str
    role: str
    active: bool
    password_hash: str

    @property
    def fingerprint(self) -> str:
        """Changes with the password: sessions signed with the old one stop working."""
        return hashlib.sha256(self.password_hash.encode()).hexdigest()[:16]


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` (hex)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    n, r, p = _SCRYPT["n"], _SCRYPT["r"], _SCRYPT["p"]
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except ValueError:
        return False
    return hmac.compare_digest(got, bytes.fromhex(digest))


def new_password() -> str:
    """A generated password: 16 URL-safe characters (96 bits)."""
    return secrets.token_urlsafe(12)


def _row_account(row: Any, tournament: str) -> Account:
    return Account(
        row.id, tournament, row.tournament_id, row.username, row.role, row.active, row.password_hash
    )


def _tournament_id(db: Any, name: str) -> int:
    from sqlalchemy import select

    from guobiao.tournament.models import Tournament

    found = db.scalar(select(Tournament.id).where(Tournament.name == name))
    if found is None:
        raise AccountError(f"no tournament {name!r}")
    return int(found)


def _check_username(username: str) -> str:
    name = username.strip()
    if not name or len(name) > 100 or any(c.isspace() or not c.isprintable() for c in name):
        raise AccountError(
            f"a user name is 1-100 printable characters without spaces: {username!r}"
        )
    return name


def add_account(store: Store, tournament: str, username: str, *, role: str = "referee") -> str:
    """Create an account; returns its generated password (shown once, never stored)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import RefereeAccount

    if role not in ROLES:
        raise AccountError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
    name = _check_username(username)
    password = new_password()
    with Session(store.engine) as db, db.begin():
        tid = _tournament_id(db, tournament)
        exists = db.scalar(
            select(RefereeAccount).where(
                RefereeAccount.tournament_id == tid, RefereeAccount.username == name
            )
        )
        if exists is not None:
            raise AccountError(f"{tournament!r} already has an account {name!r} (--reset it)")
        db.add(
            RefereeAccount(
                tournament_id=tid, username=name, password_hash=hash_password(password), role=role
            )
        )
    return password


def _account_row(db: Any, tournament: str, username: str) -> Any:
    from sqlalchemy import select

    from guobiao.tournament.models import RefereeAccount

    tid = _tournament_id(db, tournament)
    row = db.scalar(
        select(RefereeAccount).where(
            RefereeAccount.tournament_id == tid, RefereeAccount.username == username
        )
    )
    if row is None:
        raise AccountError(f"{tournament!r} has no account {username!r}")
    return row


def reset_password(store: Store, tournament: str, username: str) -> str:
    """A new generated password (the account is active again); old sessions end."""
    from sqlalchemy.orm import Session

    password = new_password()
    with Session(store.engine) as db, db.begin():
        row = _account_row(db, tournament, username)
        row.password_hash = hash_password(password)
        row.active = True
    return password


def remove_account(store: Store, tournament: str, username: str) -> None:
    """Deactivate an account: it can no longer log in, and its sessions end. The row stays (the
    audit trail names it)."""
    from sqlalchemy.orm import Session

    with Session(store.engine) as db, db.begin():
        row = _account_row(db, tournament, username)
        row.active = False
        row.password_hash = "removed$" + secrets.token_hex(8)


def list_accounts(store: Store, tournament: str) -> list[Account]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import RefereeAccount

    with Session(store.engine) as db:
        tid = _tournament_id(db, tournament)
        rows = db.scalars(
            select(RefereeAccount)
            .where(RefereeAccount.tournament_id == tid)
            .order_by(RefereeAccount.username)
        )
        return [_row_account(row, tournament) for row in rows]


def find_account(store: Store, account_id: int) -> Account | None:
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import RefereeAccount, Tournament

    with Session(store.engine) as db:
        row = db.get(RefereeAccount, account_id)
        if row is None:
            return None
        tournament = db.get(Tournament, row.tournament_id)
        return _row_account(row, tournament.name if tournament else "")


def authenticate(store: Store, tournament: str, username: str, password: str) -> Account | None:
    """The active account of ``tournament`` with this name and password, else None. An unknown
    name costs one scrypt too, so the time does not tell which names exist."""
    from sqlalchemy.orm import Session

    global _DUMMY_HASH
    with Session(store.engine) as db:
        try:
            account = _row_account(_account_row(db, tournament, username), tournament)
        except AccountError:
            account = None
    if account is None or not account.active:
        if not _DUMMY_HASH:
            _DUMMY_HASH = hash_password(secrets.token_hex(8))
        verify_password(password, _DUMMY_HASH)
        return None
    return account if verify_password(password, account.password_hash) else None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class Login:
    """A verified session cookie."""

    account_id: int
    tournament_id: int
    username: str
    fingerprint: str
    expires: float
    nonce: str


class SessionSigner:
    """Signs and checks session cookies with ``secret`` (32+ random bytes, kept by the server)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("the session secret needs at least 32 bytes")
        self._key = hashlib.sha256(b"guobiao-session\0" + secret).digest()
        self._csrf_key = hashlib.sha256(b"guobiao-csrf\0" + secret).digest()

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())

    def issue(self, account: Account, now: float, lifetime: float) -> tuple[str, Login]:
        login = Login(
            account.id,
            account.tournament_id,
            account.username,
            account.fingerprint,
            now + lifetime,
            secrets.token_urlsafe(16),
        )
        body = {
            "a": login.account_id,
            "t": login.tournament_id,
            "u": login.username,
            "f": login.fingerprint,
            "e": login.expires,
            "n": login.nonce,
        }
        payload = _b64(json.dumps(body, separators=(",", ":")).encode())
        return f"{payload}.{self._mac(payload)}", login

    def check(self, cookie: str, now: float) -> Login | None:
        """The session if the cookie is ours, untampered and not expired, else None."""
        payload, _, mac = cookie.partition(".")
        if not payload or not hmac.compare_digest(mac.encode(), self._mac(payload).encode()):
            return None
        try:
            body = json.loads(_unb64(payload))
            login = Login(
                int(body["a"]),
                int(body["t"]),
                str(body["u"]),
                str(body["f"]),
                float(body["e"]),
                str(body["n"]),
            )
        except (ValueError, KeyError, TypeError):
            return None
        return login if now < login.expires else None

    def csrf_token(self, login: Login) -> str:
        return _b64(hmac.new(self._csrf_key, login.nonce.encode(), hashlib.sha256).digest())

    def check_csrf(self, login: Login, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self.csrf_token(login).encode())
