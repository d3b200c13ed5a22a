from django import template

from memoryhub.console.dashboard import dashboard_counts

register = template.Library()


@register.simple_tag(takes_context=True)
def console_dashboard(context):
    """Counts for the admin index dashboard, limited to the member's tenants."""
    return dashboard_counts(context["request"].user)
