"""A request body without a length is refused: 411 Length Required, before anything reads it.

Under WSGI (gunicorn, runserver) Django reads exactly CONTENT_LENGTH bytes of a request's body, and
none when the header is missing. A body sent chunked (`Transfer-Encoding: chunked`, as an HTTP client
sends one it streams) has no Content-Length, so it would be read as empty: a game server's chunked
limit check answered "player: This field is required", and a chunked round refused as no body. This
middleware, right after the security and no-store ones so that its answer carries their headers,
answers such a request 411 instead: JSON `{"detail": ...}` under /api/, as every API error, and
plain text elsewhere. A body sent with its Content-Length (whatever the transfer encoding) is read
as before.
"""

from django.http import HttpResponse, JsonResponse

from core.api_path import is_api_request

LENGTH_REQUIRED = 411
MESSAGE = (
    "A request body needs a Content-Length header: a body sent without one (Transfer-Encoding: "
    "chunked) is not read. Send the body with its length."
)


def length_required(get_response):
    def middleware(request):
        meta = request.META
        if meta.get("HTTP_TRANSFER_ENCODING") and not meta.get("CONTENT_LENGTH"):
            if is_api_request(request):
                return JsonResponse({"detail": MESSAGE}, status=LENGTH_REQUIRED)
            return HttpResponse(MESSAGE, status=LENGTH_REQUIRED, content_type="text/plain; charset=utf-8")
        return get_response(request)

    return middleware
