"""The campaign core: a campaign as one typed value, and every rule of its turn applied to it, pure and synchronous."""

