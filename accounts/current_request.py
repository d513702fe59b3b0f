"""The request being answered, for code that django-allauth calls without it (the second-factor forms,
accounts/second_factor_forms.py, are made with the user only). Set by the middleware here, for the
length of each request, in a context variable: each thread and task sees its own."""

from contextvars import ContextVar

from django.http import HttpRequest

_current: ContextVar[HttpRequest | None] = ContextVar("pitboss_request", default=None)


def current_request() -> HttpRequest | None:
    return _current.get()


def remember_request(get_response):
    def middleware(request: HttpRequest):
        token = _current.set(request)
        try:
            return get_response(request)
        finally:
            _current.reset(token)

    return middleware
